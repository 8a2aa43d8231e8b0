//! Reading a page as a browser shows it: its CSRF token, fields, forms and the messages beside
//! them, and the text of an element or a table row.

use super::Resp;

impl Resp {
    /// The first CSRF token in a form on this page.
    pub fn csrf(&self) -> String {
        attr_after(&self.body, "name=\"csrf\" value=\"").expect("a csrf field on the page")
    }
    /// The value of the first input named `name`.
    pub fn input(&self, name: &str) -> Option<String> {
        let needle = format!("name=\"{name}\"");
        let i = self.body.find(&needle)?;
        let tag_start = self.body[..i].rfind('<')?;
        let tag_end = i + self.body[i..].find('>')?;
        let tag = &self.body[tag_start..tag_end];
        attr_after(tag, "value=\"").map(|v| unescape(&v))
    }
    /// The referee's clock page's configuration (its `data-config` JSON).
    pub fn clock_config(&self) -> serde_json::Value {
        let raw = attr_after(&self.body, "data-config=\"").expect("a clock page");
        serde_json::from_str(&unescape(&raw)).expect("the clock's configuration is JSON")
    }
    /// The HTML of the form that holds the element with `id` (the form's own id, say).
    fn form_html(&self, id: &str) -> &str {
        let start = self.body.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no form {id}"));
        let open = self.body[..start].rfind("<form").expect("a form tag");
        &self.body[open..start + self.body[start..].find("</form>").expect("</form>")]
    }

    /// The named inputs of the form with `id` (hidden ones included) and its action, as the
    /// page's script sends them.
    pub fn form_inputs(&self, id: &str) -> (String, Vec<(String, String)>) {
        let form = self.form_html(id);
        let fields = form
            .split("<input")
            .skip(1)
            .map(|piece| &piece[..piece.find('>').unwrap_or(piece.len())])
            .filter_map(|tag| Some((attr_after(tag, "name=\"")?, value_of(tag))))
            .collect();
        (action_of(form), fields)
    }

    /// What a browser sends for the form with `id` as the page shows it, untouched: its
    /// inputs (hidden ones included; a checkbox only when checked), each select's selected
    /// option (else its first) and its action.
    pub fn form_as_shown(&self, id: &str) -> (String, Vec<(String, String)>) {
        let form = self.form_html(id);
        let mut fields = Vec::new();
        let mut rest = form;
        while let Some(i) = ["<input", "<select"].iter().filter_map(|t| rest.find(t)).min() {
            rest = &rest[i..];
            let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
            let name = attr_after(tag, "name=\"");
            if rest.starts_with("<select") {
                let end = rest.find("</select>").expect("</select>");
                if let (Some(name), Some(option)) = (name, selected_option(&rest[..end])) {
                    fields.push((name, value_of(option)));
                }
                rest = &rest[end..];
                continue;
            }
            let unchecked = (tag.contains("type=\"checkbox\"") || tag.contains("type=\"radio\""))
                && !tag.contains(" checked");
            if let Some(name) = name.filter(|_| !unchecked) {
                fields.push((name, value_of(tag)));
            }
            rest = &rest[tag.len()..];
        }
        (action_of(form), fields)
    }

    /// The message beside field `name` (id="err-NAME"), if any.
    pub fn field_error(&self, name: &str) -> Option<String> {
        let needle = format!("id=\"err-{name}\">");
        let i = self.body.find(&needle)? + needle.len();
        let end = i + self.body[i..].find('<')?;
        Some(unescape(&self.body[i..end]))
    }
}

/// A form's action, unescaped ("" when it has none).
fn action_of(form: &str) -> String {
    attr_after(form, "action=\"").map(|a| unescape(&a)).unwrap_or_default()
}

/// A tag's value attribute, unescaped ("" when it has none).
fn value_of(tag: &str) -> String {
    attr_after(tag, "value=\"").map(|v| unescape(&v)).unwrap_or_default()
}

/// A select's option marked selected, else its first (the HTML up to `</select>`).
fn selected_option(select: &str) -> Option<&str> {
    let options: Vec<&str> = select.split("<option").skip(1).collect();
    let chosen = options.iter().find(|o| o[..o.find('>').unwrap_or(0)].contains(" selected"));
    chosen.or(options.first()).copied()
}

/// The text after `prefix` up to the next double quote: an attribute's value as written.
pub fn attr_after(s: &str, prefix: &str) -> Option<String> {
    let i = s.find(prefix)? + prefix.len();
    let end = i + s[i..].find('"')?;
    Some(s[i..end].to_string())
}

/// HTML's escapes undone (the ones askama and the pages write).
pub fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&#60;", "<")
        .replace("&#62;", ">")
        .replace("&amp;", "&")
        .replace("&#38;", "&")
}

/// The text inside the element with `id` (tags removed; up to the first closing tag of the
/// element's own kind).
pub fn text_of(r: &Resp, id: &str) -> Option<String> {
    let needle = format!("id=\"{id}\"");
    let i = r.body.find(&needle)?;
    let open = r.body[..i].rfind('<')?;
    let tag: String = r.body[open + 1..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
    let start = i + r.body[i..].find('>')? + 1;
    let rest = &r.body[start..];
    let end = rest.find(&format!("</{tag}>"))?;
    Some(plain_text(&rest[..end]))
}

/// An HTML fragment's text: tags removed, entities unescaped, trimmed.
pub fn plain_text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for ch in html.chars() {
        match ch {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    unescape(out.trim())
}

/// The text of each cell of a table row's HTML (`<td` by `<td`, the optional end tags left out).
pub fn row_cells(row: &str) -> Vec<String> {
    row.split("<td").skip(1).map(|cell| plain_text(&cell[cell.find('>').unwrap() + 1..])).collect()
}

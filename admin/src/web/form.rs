//! Form bodies, parsed by hand so that every field arrives as a string and every problem
//! becomes a message beside its field (never an extractor's plain-text 400).

/// A submitted form: fields in order, and uploaded files for multipart forms.
#[derive(Debug, Default, Clone)]
pub struct Form {
    pub fields: Vec<(String, String)>,
    pub files: Vec<FilePart>,
}

#[derive(Debug, Clone)]
pub struct FilePart {
    pub field: String,
    pub filename: String,
    pub data: Vec<u8>,
}

impl Form {
    /// The first value of a field, trimmed; "" when absent.
    pub fn get(&self, name: &str) -> &str {
        self.fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim()).unwrap_or("")
    }
    /// The first value of a field, untrimmed (passwords).
    pub fn raw(&self, name: &str) -> &str {
        self.fields.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or("")
    }
    pub fn all(&self, name: &str) -> Vec<&str> {
        self.fields.iter().filter(|(k, _)| k == name).map(|(_, v)| v.trim()).collect()
    }
    pub fn has(&self, name: &str) -> bool {
        self.fields.iter().any(|(k, _)| k == name)
    }
    pub fn checked(&self, name: &str) -> bool {
        matches!(self.get(name), "on" | "1" | "true" | "yes")
    }
    pub fn file(&self, name: &str) -> Option<&FilePart> {
        self.files.iter().find(|f| f.field == name)
    }

    /// Parse a body by its content type: urlencoded or multipart/form-data.
    pub fn parse(content_type: &str, body: &[u8]) -> Result<Form, String> {
        let ct = content_type.to_ascii_lowercase();
        if ct.starts_with("multipart/form-data") {
            let boundary = content_type
                .split(';')
                .map(str::trim)
                .find_map(|p| {
                    let (k, v) = p.split_once('=')?;
                    k.trim().eq_ignore_ascii_case("boundary").then(|| v.trim().trim_matches('"').to_string())
                })
                .ok_or_else(|| "multipart body without boundary".to_string())?;
            parse_multipart(&boundary, body)
        } else {
            let fields: Vec<(String, String)> =
                serde_urlencoded::from_bytes(body).map_err(|e| format!("bad form body: {e}"))?;
            Ok(Form { fields, files: Vec::new() })
        }
    }
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() || from > hay.len() {
        return None;
    }
    hay[from..].windows(needle.len()).position(|w| w == needle).map(|p| p + from)
}

/// A small multipart/form-data parser (RFC 7578): enough for browser file uploads.
pub fn parse_multipart(boundary: &str, body: &[u8]) -> Result<Form, String> {
    let delim = format!("--{boundary}");
    let delim = delim.as_bytes();
    let mut form = Form::default();
    let mut pos = find(body, delim, 0).ok_or("multipart body without its boundary")?;
    loop {
        pos += delim.len();
        if body[pos..].starts_with(b"--") {
            break; // final boundary
        }
        // skip CRLF after the boundary
        if body[pos..].starts_with(b"\r\n") {
            pos += 2;
        } else if body[pos..].starts_with(b"\n") {
            pos += 1;
        }
        let head_end = find(body, b"\r\n\r\n", pos).ok_or("multipart part without headers")?;
        let headers = String::from_utf8_lossy(&body[pos..head_end]).to_string();
        let data_start = head_end + 4;
        let mut next_delim = Vec::with_capacity(delim.len() + 2);
        next_delim.extend_from_slice(b"\r\n");
        next_delim.extend_from_slice(delim);
        let data_end = find(body, &next_delim, data_start).ok_or("multipart part without an end")?;
        let data = &body[data_start..data_end];
        let mut name = None;
        let mut filename = None;
        for line in headers.lines() {
            let Some((k, v)) = line.split_once(':') else { continue };
            if !k.trim().eq_ignore_ascii_case("content-disposition") {
                continue;
            }
            for p in v.split(';').map(str::trim) {
                if let Some((pk, pv)) = p.split_once('=') {
                    let pv = pv.trim().trim_matches('"').to_string();
                    match pk.trim().to_ascii_lowercase().as_str() {
                        "name" => name = Some(pv),
                        "filename" => filename = Some(pv),
                        _ => {}
                    }
                }
            }
        }
        if let Some(name) = name {
            match filename {
                Some(filename) => form.files.push(FilePart { field: name, filename, data: data.to_vec() }),
                None => form.fields.push((name, String::from_utf8_lossy(data).to_string())),
            }
        }
        pos = data_end + 2;
        if pos >= body.len() {
            break;
        }
    }
    Ok(form)
}

/// Lowercase hex, for carrying an upload from the preview page to the confirmation.
pub fn hex_encode(data: &[u8]) -> String {
    data.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn hex_decode(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urlencoded_fields() {
        let f = Form::parse("application/x-www-form-urlencoded", b"a=1&b=%E4%B8%AD+x&a=2").unwrap();
        assert_eq!(f.get("a"), "1");
        assert_eq!(f.get("b"), "中 x");
        assert_eq!(f.all("a"), vec!["1", "2"]);
        assert_eq!(f.get("zzz"), "");
    }

    #[test]
    fn multipart_fields_and_files() {
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\ntok\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\nContent-Type: text/csv\r\n\r\nx,y\r\n1,2\r\n\r\n--XyZ--\r\n";
        let f = Form::parse("multipart/form-data; boundary=XyZ", body).unwrap();
        assert_eq!(f.get("csrf"), "tok");
        let file = f.file("file").unwrap();
        assert_eq!(file.filename, "a.csv");
        assert_eq!(file.data, b"x,y\r\n1,2\r\n");
        assert!(Form::parse("multipart/form-data; boundary=Q", b"garbage").is_err());
    }

    #[test]
    fn hex_round_trip() {
        let d = vec![0u8, 1, 0xfe, 0x41];
        assert_eq!(hex_decode(&hex_encode(&d)).unwrap(), d);
        assert!(hex_decode("abc").is_none());
        assert!(hex_decode("zz").is_none());
    }
}

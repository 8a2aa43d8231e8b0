//! Form bodies, read so that every field arrives as a string and every problem becomes a
//! message in the reader's language (never an extractor's plain-text 400): urlencoded bodies
//! by serde_urlencoded, uploads (multipart/form-data) streamed by actix-multipart under limits.

pub use crate::domain::text::{Lines, MAX_REASON};

/// A submitted form: fields in order, and uploaded files for multipart forms.
#[derive(Debug, Default, Clone)]
pub struct Form {
    pub fields: Vec<(String, String)>,
    pub files: Vec<FilePart>,
}

#[cfg(test)]
impl Form {
    /// A form of these fields and no file, as a test sends it.
    pub fn of(pairs: &[(&str, &str)]) -> Form {
        Form {
            fields: pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            files: Vec::new(),
        }
    }
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

    /// Parse an urlencoded body. A multipart body is refused here: uploads are streamed by
    /// [`read_upload`] on the routes that take files.
    pub fn parse(content_type: &str, body: &[u8]) -> Result<Form, String> {
        if is_multipart(content_type) {
            return Err("multipart body on a route without uploads".into());
        }
        let fields: Vec<(String, String)> =
            serde_urlencoded::from_bytes(body).map_err(|e| format!("bad form body: {e}"))?;
        Ok(Form { fields, files: Vec::new() })
    }
}

/// THE check of a typed text beside its field (`domain::text`): the message of its problem,
/// if any, in `lang`.
pub fn text_error(lang: crate::i18n::Lang, text: &str, max: usize, lines: Lines) -> Option<String> {
    crate::domain::text::check(text, max, lines).map(|p| lang.text_problem(p))
}

/// A form shown again with words beside its fields (`views::pages::FormView`): what a check
/// of a field writes into, named here so that checks need not know the page.
pub trait FieldErrors {
    /// `message` beside `field` (the first one written stays).
    fn error(&mut self, field: &str, message: String);
}

/// A reason field (at most [`MAX_REASON`] characters, several lines) checked into `f`.
pub fn check_reason(lang: crate::i18n::Lang, form: &Form, f: &mut impl FieldErrors) {
    if let Some(e) = text_error(lang, form.get("reason"), MAX_REASON, Lines::Many) {
        f.error("reason", e);
    }
}

fn is_multipart(content_type: &str) -> bool {
    content_type.trim_start().to_ascii_lowercase().starts_with("multipart/")
}

/// Why an upload could not be read; each is a page in the reader's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UploadError {
    /// Neither multipart/form-data nor urlencoded.
    NotMultipart,
    NoBoundary,
    /// The body ends before the closing boundary.
    Truncated,
    /// A part without Content-Disposition: form-data and a name.
    NoDisposition,
    /// Anything else the parser refuses (bad part headers, a broken connection).
    Unreadable,
    /// A file over `file_limit`, or the other fields over `fields_limit`.
    TooLarge,
}

impl UploadError {
    /// The catalog key of the message.
    pub fn key(self) -> &'static str {
        match self {
            UploadError::NotMultipart => "err.upload_not_multipart",
            UploadError::NoBoundary => "err.upload_no_boundary",
            UploadError::Truncated => "err.upload_truncated",
            UploadError::NoDisposition => "err.upload_no_disposition",
            UploadError::Unreadable => "err.upload_bad",
            UploadError::TooLarge => "err.too_large",
        }
    }
}

impl From<actix_multipart::MultipartError> for UploadError {
    fn from(e: actix_multipart::MultipartError) -> Self {
        use actix_multipart::MultipartError as E;
        tracing::info!("unreadable upload: {e}");
        match e {
            E::ContentTypeMissing | E::ContentTypeParse | E::ContentTypeIncompatible => {
                UploadError::NotMultipart
            }
            E::BoundaryMissing => UploadError::NoBoundary,
            E::Incomplete => UploadError::Truncated,
            E::ContentDispositionMissing | E::ContentDispositionNameMissing => UploadError::NoDisposition,
            E::Payload(actix_web::error::PayloadError::Overflow) => UploadError::TooLarge,
            _ => UploadError::Unreadable,
        }
    }
}

/// The name a part's Content-Disposition gives its file: `filename*=UTF-8''…` (RFC 5987) if
/// present and decodable, else `filename="…"` (browsers send it as raw UTF-8).
fn filename_of(cd: &actix_web::http::header::ContentDisposition) -> Option<String> {
    use actix_web::http::header::Charset;
    let ext = cd.get_filename_ext().and_then(|ext| match &ext.charset {
        Charset::Ext(c) if c.eq_ignore_ascii_case("utf-8") => String::from_utf8(ext.value.clone()).ok(),
        Charset::Us_Ascii | Charset::Iso_8859_1 => Some(ext.value.iter().map(|&b| b as char).collect()),
        _ => String::from_utf8(ext.value.clone()).ok(),
    });
    ext.or_else(|| cd.get_filename().map(str::to_string))
}

/// Read an upload form as it streams in (actix-multipart), never holding more than
/// `file_limit` bytes per file and `fields_limit` bytes of other fields: past either the read
/// stops with [`UploadError::TooLarge`]. An urlencoded body (a form without its file input) is
/// read the same way under `fields_limit`.
pub async fn read_upload<S>(
    content_type: &str,
    stream: S,
    file_limit: usize,
    fields_limit: usize,
) -> Result<Form, UploadError>
where
    S: futures_util::Stream<Item = Result<actix_web::web::Bytes, actix_web::error::PayloadError>>
        + Unpin
        + 'static,
{
    let ct = content_type.trim().to_ascii_lowercase();
    if ct.starts_with("application/x-www-form-urlencoded") {
        return read_urlencoded(content_type, stream, fields_limit).await;
    }
    if !ct.starts_with("multipart/form-data") {
        return Err(UploadError::NotMultipart);
    }
    read_multipart(content_type, stream, file_limit, fields_limit).await
}

/// `read_upload` of an urlencoded body: at most `limit` bytes.
async fn read_urlencoded<S>(content_type: &str, mut stream: S, limit: usize) -> Result<Form, UploadError>
where
    S: futures_util::Stream<Item = Result<actix_web::web::Bytes, actix_web::error::PayloadError>> + Unpin,
{
    use futures_util::StreamExt;
    let mut body = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|_| UploadError::Unreadable)?;
        if body.len() + chunk.len() > limit {
            return Err(UploadError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Form::parse(content_type, &body).map_err(|_| UploadError::Unreadable)
}

/// `read_upload` of a multipart body: each part a file (at most `file_limit` bytes) or a
/// field (all fields together at most `fields_limit` bytes).
async fn read_multipart<S>(
    content_type: &str,
    stream: S,
    file_limit: usize,
    fields_limit: usize,
) -> Result<Form, UploadError>
where
    S: futures_util::Stream<Item = Result<actix_web::web::Bytes, actix_web::error::PayloadError>>
        + Unpin
        + 'static,
{
    use actix_web::http::header::{HeaderMap, HeaderValue, CONTENT_TYPE};
    use futures_util::StreamExt;
    let mut headers = HeaderMap::new();
    let value = HeaderValue::from_str(content_type).map_err(|_| UploadError::NotMultipart)?;
    headers.insert(CONTENT_TYPE, value);
    let mut parts = actix_multipart::Multipart::new(&headers, stream);
    let mut form = Form::default();
    let mut fields_size = 0usize;
    while let Some(part) = parts.next().await {
        let mut part = part?;
        let cd = part.content_disposition().ok_or(UploadError::NoDisposition)?;
        let name = cd.get_name().ok_or(UploadError::NoDisposition)?.to_string();
        let filename = filename_of(cd);
        let mut data = Vec::new();
        while let Some(chunk) = part.next().await {
            let chunk = chunk?;
            let over = match filename {
                Some(_) => data.len() + chunk.len() > file_limit,
                None => fields_size + data.len() + chunk.len() > fields_limit,
            };
            if over {
                return Err(UploadError::TooLarge);
            }
            data.extend_from_slice(&chunk);
        }
        match filename {
            Some(filename) => form.files.push(FilePart { field: name, filename, data }),
            None => {
                fields_size += data.len();
                form.fields.push((name, String::from_utf8_lossy(&data).into_owned()));
            }
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
    fn multipart_is_not_read_as_urlencoded() {
        assert!(Form::parse("multipart/form-data; boundary=Q", b"garbage").is_err());
        assert!(Form::parse("Multipart/Form-Data; boundary=Q", b"a=1").is_err());
    }

    #[test]
    fn hex_round_trip() {
        let d = vec![0u8, 1, 0xfe, 0x41];
        assert_eq!(hex_decode(&hex_encode(&d)).unwrap(), d);
        assert!(hex_decode("abc").is_none());
        assert!(hex_decode("zz").is_none());
    }
}

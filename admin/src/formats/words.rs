//! The CSV importer's and the OpenGotha reader's problems in the reader's language: each
//! renderer is a match over the variants naming catalog keys, used by the web pages and (in
//! English, for `Display`) the command line.

use super::entrants_csv::{ImportError, ImportWarning, MissingColumn, RowResult};
use super::opengotha::read::{OgError, OgErrorKind, OgRole};
use super::rating_lists::{LineProblem, ListError, Needed};
use crate::i18n::{tr, Lang};

/// Bytes in the megabyte of the file-size messages.
pub(crate) const MB: usize = 1_048_576;

impl Lang {
    /// A CSV row's problems: "Line 5 (王伟): Rank: “3x” is not a rank…".
    pub fn import_row(self, r: &RowResult) -> String {
        let why = self.field_errors_labelled(&r.errors);
        if r.display_name.is_empty() {
            tr!(self, "csv_imp.row", line = r.line, why)
        } else {
            tr!(self, "csv_imp.row_named", line = r.line, name = r.display_name, why)
        }
    }

    /// Something the CSV importer did that the user should know about.
    pub fn import_warning(self, w: &ImportWarning) -> String {
        match w {
            ImportWarning::UnknownColumn { column, header } => {
                tr!(self, "csv_imp.warn_unknown_column", column, header)
            }
            ImportWarning::LinesBeforeHeader { header_line } => {
                tr!(self, "csv_imp.warn_lines_before_header", header_line)
            }
            ImportWarning::ExtraCells { line } => tr!(self, "csv_imp.warn_extra_cells", line),
            ImportWarning::NoDataRows => self.t("csv_imp.warn_no_data").into(),
        }
    }

    /// A required column the CSV header lacks, as a phrase to list.
    pub fn missing_column(self, m: &MissingColumn) -> String {
        match m {
            MissingColumn::Name => self.t("csv_imp.col_name").into(),
            MissingColumn::GivenName { family_header } => tr!(self, "csv_imp.col_given", family_header),
            MissingColumn::FamilyName { given_header } => tr!(self, "csv_imp.col_family", given_header),
            MissingColumn::Rank => self.t("csv_imp.col_rank").into(),
        }
    }

    /// Why a CSV file cannot be imported at all.
    pub fn import_error(self, e: &ImportError) -> String {
        match e {
            ImportError::Empty => self.t("imp.err_empty").into(),
            ImportError::TooLarge { size, max } => {
                // One decimal of the size is shown only; the limit is a whole number of MB.
                let shown = format!("{:.1}", *size as f64 / MB as f64);
                tr!(self, "csv_imp.err_too_large", size = shown, max = max / MB)
            }
            ImportError::TooManyRows { max } => tr!(self, "csv_imp.err_too_many_rows", max),
            ImportError::NotText => self.t("csv_imp.err_not_text").into(),
            ImportError::InvalidUtf8 { offset } => tr!(self, "csv_imp.err_invalid_utf8", offset),
            ImportError::MissingColumns(missing) => {
                let list: Vec<String> = missing.iter().map(|m| self.missing_column(m)).collect();
                tr!(self, "csv_imp.err_missing_columns", columns = list.join(self.t("csv_imp.col_and")))
            }
            ImportError::DuplicateColumn { first, second } => {
                tr!(self, "csv_imp.err_duplicate_column", first, second)
            }
            ImportError::Csv { line, message } => tr!(self, "csv_imp.err_csv", line, message),
            ImportError::UnclosedQuote { line } => tr!(self, "csv_imp.err_unclosed_quote", line),
        }
    }

    /// Why a rating list cannot be read: "第 5 行：……" / "Line 5: …".
    pub fn rating_list_error(self, e: &ListError) -> String {
        match e {
            ListError::Empty => self.t("imp.err_empty").into(),
            ListError::TooLarge { max } => tr!(self, "rl.err_too_large", max = max / MB),
            ListError::TooManyRows { max } => tr!(self, "rl.err_too_many_rows", max = *max),
            ListError::NotText => self.t("rl.err_not_text").into(),
            ListError::NoRows => self.t("rl.err_no_rows").into(),
            ListError::MissingColumns(missing) => {
                let list: Vec<&str> = missing
                    .iter()
                    .map(|m| match m {
                        Needed::Name => self.t("rl.col_name"),
                        Needed::RankOrRating => self.t("rl.col_rank_or_rating"),
                    })
                    .collect();
                tr!(self, "rl.err_missing_columns", columns = list.join(self.t("csv_imp.col_and")))
            }
            ListError::Line { line, problem } => {
                let why = match problem {
                    LineProblem::TooShort => self.t("rl.line_short").to_string(),
                    LineProblem::BadRating { value } => {
                        tr!(self, "rl.line_bad_rating", value = value.clone())
                    }
                    LineProblem::BadRank { value } => tr!(self, "rl.line_bad_rank", value = value.clone()),
                    LineProblem::NoName => self.t("rl.line_no_name").to_string(),
                };
                tr!(self, "rl.err_line", line = *line, why)
            }
        }
    }

    /// Why an OpenGotha file cannot be imported, starting with the position when known.
    pub fn og_error(self, e: &OgError) -> String {
        let msg = self.og_error_kind(&e.kind);
        match e.position {
            Some(p) => tr!(self, "og_err.at", line = p.line, column = p.column, message = msg),
            None => msg,
        }
    }

    fn og_error_kind(self, k: &OgErrorKind) -> String {
        use OgErrorKind as K;
        match k {
            K::Empty => self.t("imp.err_empty").into(),
            K::TooLarge { max } => tr!(self, "og_err.too_large", max = max / MB),
            K::Encoding { encoding } => tr!(self, "og_err.encoding", encoding),
            K::Xml { detail } => tr!(self, "og_err.xml", detail),
            K::TooDeep { max } => tr!(self, "og_err.too_deep", max),
            K::Truncated { open } => tr!(self, "og_err.truncated", open),
            K::WrongRoot { found } => tr!(self, "og_err.wrong_root", found),
            K::NoRoot => self.t("og_err.no_root").into(),
            K::MissingAttribute { element, attribute } => {
                tr!(self, "og_err.missing_attribute", element, attribute)
            }
            K::BadAttribute { element, attribute, value } => {
                tr!(self, "og_err.bad_attribute", element, attribute, value)
            }
            K::BadRank { player, value } => tr!(self, "og_err.bad_rank", player, value),
            K::InvalidPlayer { player, errors } => {
                tr!(self, "og_err.invalid_player", player, errors = self.field_errors_labelled(errors))
            }
            K::DuplicatePlayer { key } => tr!(self, "og_err.duplicate_player", player = key),
            K::UnknownPlayer { key, role } => tr!(
                self,
                match role {
                    OgRole::Black => "og_err.unknown_black",
                    OgRole::White => "og_err.unknown_white",
                    OgRole::Bye => "og_err.unknown_bye",
                },
                player = key,
            ),
            K::SamePlayer { key } => tr!(self, "og_err.same_player", player = key),
            K::PlayerTwiceInRound { key, round } => tr!(self, "og_err.twice_in_round", player = key, round),
        }
    }
}

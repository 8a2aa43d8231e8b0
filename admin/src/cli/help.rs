//! The command line's help in its user's language. The `///` comments on the commands and
//! arguments are for developers; what `tengen --help` shows comes from the catalog, in the
//! language of the user's locale (`Lang::from_environment`: Chinese unless the locale names
//! English): `cli.cmd.<path>` for a command (the subcommands' names joined by `_`:
//! `cli.cmd.print_standings`), and for an argument `cli.arg.<path>.<id>` where one command words
//! it its own way, else `cli.arg.<id>`. Clap's headings and its own flags (`-h`, `-V`) are
//! worded from the catalog as well; a test walks every command and argument so that none can
//! be added without its words.

use crate::i18n::{tr, Lang};
use clap::{Arg, ArgAction, Command};

/// The command line `cmd` (the root, `tengen`) with every help text in `lang`.
pub fn localized(cmd: Command, lang: Lang) -> Command {
    let cmd = cmd.about(lang.t("cli.about")).long_about(None).disable_version_flag(true).arg(
        Arg::new("version")
            .short('V')
            .long("version")
            .action(ArgAction::Version)
            .help(lang.t("cli.flag_version")),
    );
    words(cmd, lang, "")
}

/// Clap's help layout with the headings in `lang` (its own headings are English), naming only
/// the sections `cmd` has.
fn template(cmd: &Command, lang: Lang) -> String {
    let mut t = format!("{{about-with-newline}}\n{}\n\n", tr!(lang, "cli.usage", usage = "{usage}"));
    if cmd.has_subcommands() {
        t += &format!("{}\n{{subcommands}}\n\n", lang.t("cli.heading_commands"));
    }
    if cmd.get_positionals().next().is_some() {
        t += &format!("{}\n{{positionals}}\n\n", lang.t("cli.heading_arguments"));
    }
    t + &format!("{}\n{{options}}{{after-help}}", lang.t("cli.heading_options"))
}

/// `cmd` and its subcommands worded; `path` names `cmd` (empty for the root).
fn words(cmd: Command, lang: Lang, path: &str) -> Command {
    let mut cmd = cmd
        .disable_help_subcommand(true)
        .disable_help_flag(true)
        .arg(Arg::new("help").short('h').long("help").action(ArgAction::Help).help(lang.t("cli.flag_help")));
    if !path.is_empty() {
        cmd = cmd.about(lang.t(&format!("cli.cmd.{path}"))).long_about(None);
    }
    let ids: Vec<String> = cmd
        .get_arguments()
        .filter(|a| !matches!(a.get_id().as_str(), "help" | "version"))
        .map(|a| a.get_id().to_string())
        .collect();
    for id in ids {
        let help = argument_help(lang, path, &id);
        cmd = cmd.mut_arg(id.as_str(), |a| a.help(help).long_help(None));
    }
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    for name in names {
        let name_ = name.replace('-', "_");
        let sub = if path.is_empty() { name_ } else { format!("{path}_{name_}") };
        cmd = cmd.mut_subcommand(name.as_str(), |s| words(s, lang, &sub));
    }
    let layout = template(&cmd, lang);
    cmd.help_template(layout)
}

/// The help of argument `id` of the command at `path`: its own words there, else the words
/// every command shares for it.
fn argument_help(lang: Lang, path: &str, id: &str) -> &'static str {
    let own = format!("cli.arg.{path}.{id}");
    if lang.has(&own) {
        lang.t(&own)
    } else {
        lang.t(&format!("cli.arg.{id}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cli;
    use clap::CommandFactory;

    /// Every command and argument of `cmd` has its words in both languages (no catalog key
    /// is left showing), found the way `words` looks them up.
    fn check(cmd: &Command, path: &str, missing: &mut Vec<String>) {
        for lang in [Lang::Zh, Lang::En] {
            if !path.is_empty() && !lang.has(&format!("cli.cmd.{path}")) {
                missing.push(format!("cli.cmd.{path}"));
            }
            for a in cmd.get_arguments().filter(|a| !matches!(a.get_id().as_str(), "help" | "version")) {
                let id = a.get_id().as_str();
                if !lang.has(&format!("cli.arg.{path}.{id}")) && !lang.has(&format!("cli.arg.{id}")) {
                    missing.push(format!("cli.arg.{id} (in {path})"));
                }
            }
        }
        for s in cmd.get_subcommands() {
            let name = s.get_name().replace('-', "_");
            let sub = if path.is_empty() { name } else { format!("{path}_{name}") };
            check(s, &sub, missing);
        }
    }

    #[test]
    fn every_command_and_argument_has_its_words() {
        let mut missing = Vec::new();
        check(&Cli::command(), "", &mut missing);
        missing.dedup();
        assert!(missing.is_empty(), "command-line help missing from the catalog:\n{}", missing.join("\n"));
    }

    /// `tengen --help` in Chinese: Chinese headings and words, no English help text of clap's
    /// own, and still every command; in English the same in English.
    #[test]
    fn help_speaks_the_users_language() {
        let zh = localized(Cli::command(), Lang::Zh).render_long_help().to_string();
        for want in ["用法：", "命令：", "选项：", "serve", "print", "显示帮助", "启动赛事管理服务"]
        {
            assert!(zh.contains(want), "{want} not in:\n{zh}");
        }
        for english in ["Usage:", "Commands:", "Options:", "Print help", "Serve the tournament office"] {
            assert!(!zh.contains(english), "{english} in:\n{zh}");
        }
        let en = localized(Cli::command(), Lang::En).render_long_help().to_string();
        for want in
            ["Usage: ", "Commands:", "Options:", "Print help", "Serve the tournament office over HTTP"]
        {
            assert!(en.contains(want), "{want} not in:\n{en}");
        }
        let mut cmd = localized(Cli::command(), Lang::Zh);
        let serve = cmd.find_subcommand_mut("serve").unwrap().render_long_help().to_string();
        assert!(serve.contains("--trusted-proxy") && serve.contains("反向代理"), "{serve}");
        let backup = cmd.find_subcommand_mut("backup").unwrap().render_long_help().to_string();
        assert!(backup.contains("参数：") && !backup.contains("Arguments"), "{backup}");
    }

    /// The parsed command line is the same with the worded help: the words change nothing
    /// that is parsed.
    #[test]
    fn the_worded_command_line_parses_as_before() {
        use clap::FromArgMatches;
        let argv = ["tengen", "--db", "x.db", "print", "standings", "--tournament", "3", "--out", "-"];
        let m = localized(Cli::command(), Lang::Zh).try_get_matches_from(argv).unwrap();
        let cli = Cli::from_arg_matches(&m).unwrap();
        assert_eq!(cli.db, std::path::PathBuf::from("x.db"));
        let e = localized(Cli::command(), Lang::Zh).try_get_matches_from(["tengen", "--help"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp);
        let e = localized(Cli::command(), Lang::En).try_get_matches_from(["tengen", "-V"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::DisplayVersion);
    }
}

//! What the tests import: entrants as the Chinese CSV an organizer has, and OpenGotha files
//! written for a test (players, games with unknown results, byes), imported through the import
//! page as an organizer imports them.

/// Eleven entrants, 5d down to 6k (five tables and a bye), as the Chinese CSV an organizer
/// imports.
pub const ELEVEN: &str = "姓名,拼音,段位,等级分,单位,地区,出生日期,性别,备注
王一鸣,Wang Yiming,5段,2500,北京棋院,北京,1990-01-01,男,
李二娜,Li Erna,4段,2400,上海棋院,上海,1991-01-01,女,
张三丰,Zhang Sanfeng,3段,2300,杭州棋院,浙江,1992-01-01,男,
赵四海,Zhao Sihai,2段,2200,广州棋院,广东,1993-01-01,男,
钱五岳,Qian Wuyue,1段,2100,成都棋院,四川,1994-01-01,男,
孙六合,Sun Liuhe,1级,2000,武汉棋院,湖北,1995-01-01,女,
周七星,Zhou Qixing,2级,1900,南京棋院,江苏,1996-01-01,女,
吴八方,Wu Bafang,3级,1800,西安棋院,陕西,1997-01-01,女,
郑九州,Zheng Jiuzhou,4级,1700,长沙棋院,湖南,1998-01-01,男,
冯十全,Feng Shiquan,5级,1600,济南棋院,山东,1999-01-01,男,
陈百川,Chen Baichuan,6级,1500,福州棋院,福建,2000-01-01,男,
";

/// Eight entrants, ranks 5d, 4d, 3d, 2d, 1d, 1k, 2k, 3k (entrant ids in this order), as the
/// Chinese CSV an organizer imports.
pub const EIGHT: &str = "姓名,拼音,段位,等级分,单位,地区,出生日期,性别,备注
王一,Wang Yi,5段,2500,北京棋院,北京,1990-01-01,男,
李二,Li Er,4段,2400,上海棋院,上海,1991-01-01,男,
张三,Zhang San,3段,2300,杭州棋院,浙江,1992-01-01,男,
赵四,Zhao Si,2段,2200,广州棋院,广东,1993-01-01,男,
钱五,Qian Wu,1段,2100,成都棋院,四川,1994-01-01,男,
孙六,Sun Liu,1级,2000,武汉棋院,湖北,1995-01-01,女,
周七,Zhou Qi,2级,1900,南京棋院,江苏,1996-01-01,女,
吴八,Wu Ba,3级,1800,西安棋院,陕西,1997-01-01,女,
";

/// The first `n` players of [`EIGHT`] as a CSV.
pub fn eight_players(n: usize) -> String {
    EIGHT.lines().take(n + 1).map(|l| format!("{l}\n")).collect()
}

/// A player of a generated OpenGotha file: (family name, given name, rank like "3D" / "5K").
pub type OgPlayer<'a> = (&'a str, &'a str, &'a str);

/// An OpenGotha file: the players, games (round, table, black index, white index) with unknown
/// results, and byes (round, player index).
pub fn og_xml(
    players: &[OgPlayer<'_>],
    games: &[(u32, u32, usize, usize)],
    byes: &[(u32, usize)],
    rounds: u32,
) -> String {
    let key = |i: usize| format!("{}{}", players[i].0, players[i].1).replace(' ', "").to_uppercase();
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<Tournament dataVersion=\"201\" fullVersionNumber=\"3.51\">\n<Players>\n",
    );
    for (n, g, r) in players {
        x.push_str(&format!(
            "<Player club=\"北京棋院\" country=\"CN\" firstName=\"{g}\" name=\"{n}\" participating=\"{}\" rank=\"{r}\" registeringStatus=\"FIN\"/>\n",
            "1".repeat(rounds as usize)
        ));
    }
    x.push_str("</Players>\n<Games>\n");
    for (round, table, b, w) in games {
        x.push_str(&format!(
            "<Game blackPlayer=\"{}\" handicap=\"0\" knownColor=\"true\" result=\"RESULT_UNKNOWN\" roundNumber=\"{round}\" tableNumber=\"{table}\" whitePlayer=\"{}\"/>\n",
            key(*b),
            key(*w)
        ));
    }
    x.push_str("</Games>\n<ByePlayers>\n");
    for (round, p) in byes {
        x.push_str(&format!("<ByePlayer player=\"{}\" roundNumber=\"{round}\"/>\n", key(*p)));
    }
    x.push_str(&format!(
        "</ByePlayers>\n<TournamentParameterSet>\n<GeneralParameterSet numberOfRounds=\"{rounds}\"/>\n</TournamentParameterSet>\n</Tournament>\n"
    ));
    x
}

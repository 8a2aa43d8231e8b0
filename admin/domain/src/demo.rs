//! Plausible Chinese entrants for a demo tournament, the same for the same seed on every
//! machine and with every `rand` version.
//!
//! - **Names**: surnames weighted by their frequency in China (王 李 张 刘 陈 …, a few compound
//!   surnames such as 欧阳); given names of one or two characters from lists of common names by
//!   sex and generation (建国, 秀英 for older entrants; 浩宇, 梓萱 for children). Latin names are
//!   the pinyin from a table of exactly the characters used (王子涵 → Wang Zihan). Chinese and
//!   Latin full names are unique within one call for fields of a few thousand; beyond that
//!   (after 200 tries for one entrant) a name may repeat.
//! - **Ranks** like an amateur open: about a quarter 10k–1k, most 1d–5d, a few 6d–7d, and now
//!   and then one professional (1p–3p). Children under ten are at most 3d, under 13 at most 5d.
//! - **Ratings** follow the rank on the EGF-like scale OpenGotha uses (1d = 2100, 100 per rank,
//!   ±49), a few entrants unrated.
//! - **Ages** 7 to 80 on [`DEMO_REFERENCE_DATE`] (so output never depends on today's date):
//!   many children and teenagers, students, adults and veterans. Children list a school or a
//!   Go club, students a university, adults a Go association; the region is the unit's province.
//!
//! Randomness: one `ChaCha8Rng::seed_from_u64(seed)` stream, read only through `next_u64` and
//! this module's own index picking, so the output does not change when `rand` changes its
//! sampling algorithms. Entrant *i* does not depend on `n`: `demo_entrants(s, 50)` is a prefix of
//! `demo_entrants(s, 200)`.

use crate::entrant::{EntrantInput, Rank, Sex};
use crate::groups::Band;
use chrono::{Datelike, NaiveDate};
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

/// Ages are computed on this date; every birth date lies before it.
pub const DEMO_REFERENCE_DATE: NaiveDate = match NaiveDate::from_ymd_opt(2026, 1, 1) {
    Some(d) => d,
    None => panic!("a date"),
};

/// A name in both interface languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalizedName {
    pub zh: &'static str,
    pub en: &'static str,
}

/// The demo tournament's name.
pub fn demo_tournament_name() -> LocalizedName {
    LocalizedName {
        zh: "天元杯业余围棋公开赛（演示）", en: "Tengen Cup Amateur Go Open (demo)"
    }
}

/// Surnames with pinyin and a weight proportional to their frequency (roughly per 10 000).
const SURNAMES: &[(&str, &str, u32)] = &[
    ("王", "Wang", 710),
    ("李", "Li", 700),
    ("张", "Zhang", 670),
    ("刘", "Liu", 540),
    ("陈", "Chen", 460),
    ("杨", "Yang", 310),
    ("赵", "Zhao", 230),
    ("黄", "Huang", 220),
    ("周", "Zhou", 210),
    ("吴", "Wu", 200),
    ("徐", "Xu", 170),
    ("孙", "Sun", 150),
    ("胡", "Hu", 130),
    ("朱", "Zhu", 130),
    ("高", "Gao", 120),
    ("林", "Lin", 120),
    ("何", "He", 120),
    ("郭", "Guo", 110),
    ("马", "Ma", 110),
    ("罗", "Luo", 90),
    ("梁", "Liang", 90),
    ("宋", "Song", 80),
    ("郑", "Zheng", 80),
    ("谢", "Xie", 70),
    ("韩", "Han", 70),
    ("唐", "Tang", 60),
    ("冯", "Feng", 60),
    ("于", "Yu", 60),
    ("董", "Dong", 50),
    ("肖", "Xiao", 50),
    ("程", "Cheng", 50),
    ("曹", "Cao", 50),
    ("袁", "Yuan", 50),
    ("邓", "Deng", 50),
    ("许", "Xu", 50),
    ("傅", "Fu", 40),
    ("沈", "Shen", 40),
    ("曾", "Zeng", 40),
    ("彭", "Peng", 40),
    ("蒋", "Jiang", 40),
    ("蔡", "Cai", 35),
    ("贾", "Jia", 35),
    ("丁", "Ding", 35),
    ("魏", "Wei", 35),
    ("薛", "Xue", 30),
    ("叶", "Ye", 30),
    ("余", "Yu", 30),
    ("潘", "Pan", 30),
    ("杜", "Du", 30),
    ("戴", "Dai", 30),
    ("夏", "Xia", 30),
    ("钟", "Zhong", 30),
    ("田", "Tian", 30),
    ("任", "Ren", 30),
    ("姜", "Jiang", 30),
    ("范", "Fan", 30),
    ("方", "Fang", 30),
    ("石", "Shi", 30),
    ("姚", "Yao", 30),
    ("谭", "Tan", 25),
    ("廖", "Liao", 25),
    ("邹", "Zou", 25),
    ("熊", "Xiong", 25),
    ("金", "Jin", 25),
    ("陆", "Lu", 25),
    ("孔", "Kong", 25),
    ("白", "Bai", 25),
    ("崔", "Cui", 25),
    ("毛", "Mao", 25),
    ("秦", "Qin", 25),
    ("顾", "Gu", 25),
    ("孟", "Meng", 25),
    ("欧阳", "Ouyang", 4),
    ("司马", "Sima", 1),
    ("诸葛", "Zhuge", 1),
    ("上官", "Shangguan", 1),
];

/// Given names by sex and generation. Older generations favour names such as 建国 or 秀英,
/// children born after 2000 names such as 浩宇 or 梓萱; the `_ANY` lists fit every age.
const MALE_OLD: &[&str] = &[
    "建国", "国华", "国强", "建华", "志强", "志刚", "卫东", "红军", "建军", "立新", "德成", "海涛", "建平",
    "振华", "永强", "文华", "伟", "军", "强", "勇", "刚", "斌", "平", "华",
];
const MALE_YOUNG: &[&str] = &[
    "浩然", "宇轩", "子轩", "浩宇", "梓豪", "明轩", "一鸣", "子墨", "宇航", "浩轩", "皓轩", "俊熙", "昊天",
    "一凡", "睿哲", "泽宇", "晨阳", "嘉豪", "梓睿", "子豪", "奕辰", "宇辰", "天佑", "博文", "子健",
];
const MALE_ANY: &[&str] = &[
    "俊杰", "鹏飞", "俊峰", "文博", "思远", "志远", "明哲", "建明", "海峰", "伟东", "晓东", "晓明", "嘉伟",
    "文杰", "天明", "家豪", "凯", "磊", "鹏", "杰", "涛", "峰", "超", "亮", "鑫", "浩", "宇", "毅", "健",
];
const FEMALE_OLD: &[&str] = &[
    "秀英", "玉兰", "桂英", "秀兰", "丽华", "淑珍", "美玲", "红梅", "丽娟", "玉梅", "秀珍", "春梅", "海燕",
    "丽", "芳", "敏", "静", "燕", "霞", "萍",
];
const FEMALE_YOUNG: &[&str] = &[
    "子涵", "欣怡", "梓萱", "诗涵", "雨桐", "佳怡", "一诺", "可馨", "思彤", "雅琪", "语嫣", "梦瑶", "若曦",
    "心怡", "佳琪", "思雨", "欣然", "安琪", "嘉怡", "雨萱", "梓涵", "诗琪", "语桐", "可欣", "艺涵",
];
const FEMALE_ANY: &[&str] = &[
    "晓雪", "婉婷", "静怡", "丽娜", "慧敏", "晓婷", "婷婷", "菲菲", "佳慧", "文静", "晓琳", "雅婷", "梦婷",
    "晶晶", "思琪", "雨欣", "欣悦", "颖", "晴", "雪", "琳", "倩", "悦", "丹", "瑶", "璐",
];

/// Pinyin of exactly the characters used in the given names above (each has one reading in
/// names).
const NAME_PINYIN: &[(char, &str)] = &[
    ('安', "an"),
    ('博', "bo"),
    ('斌', "bin"),
    ('超', "chao"),
    ('晨', "chen"),
    ('辰', "chen"),
    ('成', "cheng"),
    ('春', "chun"),
    ('丹', "dan"),
    ('德', "de"),
    ('东', "dong"),
    ('凡', "fan"),
    ('芳', "fang"),
    ('飞', "fei"),
    ('菲', "fei"),
    ('峰', "feng"),
    ('刚', "gang"),
    ('桂', "gui"),
    ('国', "guo"),
    ('海', "hai"),
    ('航', "hang"),
    ('涵', "han"),
    ('浩', "hao"),
    ('豪', "hao"),
    ('昊', "hao"),
    ('皓', "hao"),
    ('红', "hong"),
    ('华', "hua"),
    ('慧', "hui"),
    ('佳', "jia"),
    ('家', "jia"),
    ('嘉', "jia"),
    ('建', "jian"),
    ('健', "jian"),
    ('杰', "jie"),
    ('晶', "jing"),
    ('静', "jing"),
    ('娟', "juan"),
    ('军', "jun"),
    ('俊', "jun"),
    ('凯', "kai"),
    ('可', "ke"),
    ('兰', "lan"),
    ('磊', "lei"),
    ('丽', "li"),
    ('立', "li"),
    ('亮', "liang"),
    ('琳', "lin"),
    ('玲', "ling"),
    ('璐', "lu"),
    ('美', "mei"),
    ('梅', "mei"),
    ('梦', "meng"),
    ('敏', "min"),
    ('明', "ming"),
    ('鸣', "ming"),
    ('墨', "mo"),
    ('娜', "na"),
    ('诺', "nuo"),
    ('鹏', "peng"),
    ('平', "ping"),
    ('萍', "ping"),
    ('琪', "qi"),
    ('强', "qiang"),
    ('晴', "qing"),
    ('倩', "qian"),
    ('然', "ran"),
    ('睿', "rui"),
    ('若', "ruo"),
    ('诗', "shi"),
    ('淑', "shu"),
    ('思', "si"),
    ('涛', "tao"),
    ('天', "tian"),
    ('婷', "ting"),
    ('桐', "tong"),
    ('彤', "tong"),
    ('婉', "wan"),
    ('伟', "wei"),
    ('卫', "wei"),
    ('文', "wen"),
    ('熙', "xi"),
    ('曦', "xi"),
    ('霞', "xia"),
    ('晓', "xiao"),
    ('心', "xin"),
    ('欣', "xin"),
    ('新', "xin"),
    ('馨', "xin"),
    ('鑫', "xin"),
    ('秀', "xiu"),
    ('轩', "xuan"),
    ('萱', "xuan"),
    ('雪', "xue"),
    ('雅', "ya"),
    ('嫣', "yan"),
    ('燕', "yan"),
    ('阳', "yang"),
    ('瑶', "yao"),
    ('一', "yi"),
    ('怡', "yi"),
    ('艺', "yi"),
    ('奕', "yi"),
    ('毅', "yi"),
    ('英', "ying"),
    ('颖', "ying"),
    ('勇', "yong"),
    ('永', "yong"),
    ('佑', "you"),
    ('宇', "yu"),
    ('雨', "yu"),
    ('语', "yu"),
    ('玉', "yu"),
    ('远', "yuan"),
    ('悦', "yue"),
    ('泽', "ze"),
    ('哲', "zhe"),
    ('珍', "zhen"),
    ('振', "zhen"),
    ('志', "zhi"),
    ('子', "zi"),
    ('梓', "zi"),
];

/// (unit, region) for Go associations and clubs: any age.
const CLUBS: &[(&str, &str)] = &[
    ("北京棋院", "北京市"),
    ("上海围棋协会", "上海市"),
    ("聂卫平围棋道场", "北京市"),
    ("杭州棋院", "浙江省"),
    ("深圳棋院", "广东省"),
    ("成都棋院", "四川省"),
    ("重庆棋院", "重庆市"),
    ("广州棋院", "广东省"),
    ("天津棋院", "天津市"),
    ("南京市围棋协会", "江苏省"),
    ("武汉棋院", "湖北省"),
    ("西安市围棋协会", "陕西省"),
    ("大连市围棋协会", "辽宁省"),
    ("厦门市围棋协会", "福建省"),
    ("贵州省围棋协会", "贵州省"),
    ("青岛棋院", "山东省"),
    ("长沙市围棋协会", "湖南省"),
    ("合肥市围棋协会", "安徽省"),
    ("昆明棋院", "云南省"),
    ("沈阳棋院", "辽宁省"),
];

/// Primary schools and children's Go schools: ages 7 to 12.
const PRIMARY_SCHOOLS: &[(&str, &str)] = &[
    ("北京市海淀区中关村第一小学", "北京市"),
    ("上海市世界外国语小学", "上海市"),
    ("杭州市学军小学", "浙江省"),
    ("深圳市南山实验学校", "广东省"),
    ("成都市泡桐树小学", "四川省"),
    ("天元少儿围棋学校", "上海市"),
    ("黑白少儿围棋俱乐部", "江苏省"),
];

/// Secondary schools: ages 13 to 17.
const SECONDARY_SCHOOLS: &[(&str, &str)] = &[
    ("北京市第四中学", "北京市"),
    ("中国人民大学附属中学", "北京市"),
    ("上海市实验学校", "上海市"),
    ("杭州第二中学", "浙江省"),
    ("深圳中学", "广东省"),
    ("成都七中", "四川省"),
    ("南京外国语学校", "江苏省"),
    ("华中师范大学第一附属中学", "湖北省"),
];

/// Universities: students.
const UNIVERSITIES: &[(&str, &str)] = &[
    ("清华大学", "北京市"),
    ("北京大学", "北京市"),
    ("复旦大学", "上海市"),
    ("上海交通大学", "上海市"),
    ("浙江大学", "浙江省"),
    ("南京大学", "江苏省"),
    ("武汉大学", "湖北省"),
    ("四川大学", "四川省"),
    ("中山大学", "广东省"),
    ("西安交通大学", "陕西省"),
];

/// Amateur ranks of an open, with weights.
const AMATEUR_RANKS: &[(Rank, u32)] = &[
    (Rank::Kyu(10), 1),
    (Rank::Kyu(9), 1),
    (Rank::Kyu(8), 1),
    (Rank::Kyu(7), 1),
    (Rank::Kyu(6), 2),
    (Rank::Kyu(5), 2),
    (Rank::Kyu(4), 3),
    (Rank::Kyu(3), 3),
    (Rank::Kyu(2), 4),
    (Rank::Kyu(1), 5),
    (Rank::Dan(1), 12),
    (Rank::Dan(2), 13),
    (Rank::Dan(3), 13),
    (Rank::Dan(4), 11),
    (Rank::Dan(5), 10),
    (Rank::Dan(6), 5),
    (Rank::Dan(7), 2),
];

/// (first age, last age, weight) of the age bands.
const AGE_BANDS: &[(u32, u32, u32)] =
    &[(7, 12, 30), (13, 17, 20), (18, 25, 15), (26, 45, 15), (46, 60, 12), (61, 80, 8)];

/// In 1000ths: the chance that an entrant is the field's (single) professional.
const PRO_PER_MILLE: u32 = 15;

/// Index picking over a ChaCha stream, independent of `rand`'s algorithms.
struct Picker(ChaCha8Rng);

impl Picker {
    /// Uniform in 0..n (n > 0), by the multiply-high method.
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.0.next_u64()) * n as u128) >> 64) as usize
    }
    fn between(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below((hi - lo + 1) as usize) as u32
    }
    fn per_mille(&mut self, p: u32) -> bool {
        self.below(1000) < p as usize
    }
    fn one<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    fn weighted<'a, T>(&mut self, items: &'a [T], weight: impl Fn(&T) -> u32) -> &'a T {
        let total: usize = items.iter().map(|i| weight(i) as usize).sum();
        let mut x = self.below(total);
        for item in items {
            let w = weight(item) as usize;
            if x < w {
                return item;
            }
            x -= w;
        }
        &items[items.len() - 1]
    }
}

/// Joins pinyin syllables into one capitalised word, with the apostrophe that pinyin puts
/// before a syllable starting with a, o or e ("jia" + "an" → "Jia'an").
fn join_pinyin(syllables: &[&str]) -> String {
    let mut out = String::new();
    for (i, s) in syllables.iter().enumerate() {
        if i > 0 && s.starts_with(['a', 'o', 'e']) {
            out.push('\'');
        }
        out.push_str(s);
    }
    let mut chars = out.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => out,
    }
}

fn pinyin_of(c: char) -> &'static str {
    NAME_PINYIN.iter().find(|(h, _)| *h == c).map_or("", |(_, py)| *py)
}

/// A given name for the sex and birth year, with its pinyin; never sharing a character with the
/// surname (no 林林 or 王一王).
fn given_name(p: &mut Picker, sex: Sex, birth_year: i32, surname: &str) -> (&'static str, String) {
    let (old, young, any) = match sex {
        Sex::M => (MALE_OLD, MALE_YOUNG, MALE_ANY),
        Sex::F => (FEMALE_OLD, FEMALE_YOUNG, FEMALE_ANY),
    };
    let era = if birth_year < 1976 {
        old
    } else if birth_year >= 2000 {
        young
    } else {
        any
    };
    let given = loop {
        let list = if p.below(10) < 6 { era } else { any };
        let g = *p.one(list);
        if !g.chars().any(|c| surname.contains(c)) {
            break g;
        }
    };
    let syllables: Vec<&str> = given.chars().map(pinyin_of).collect();
    (given, join_pinyin(&syllables))
}

fn rating_for(rank: Rank) -> i32 {
    match rank {
        Rank::Pro(p) => 2700 + 50 * i32::from(p),
        r => 2100 + 100 * r.value(),
    }
}

/// One group of the demo open: its Chinese and Latin names and its band.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoGroup {
    pub name_zh: &'static str,
    pub name_latin: &'static str,
    pub band: Band,
}

/// The demo open's groups in hall order, the strongest first: 业余高段组 (5段 and above),
/// 公开组 (the catch-all: everyone no other band takes) and 少儿组 (born on or after the
/// date 12 years before the event's first day). Seed 000 has no group or age rule: the
/// bands are the event's own, as a Chinese city open sets them.
pub fn demo_groups(event_date: NaiveDate) -> [DemoGroup; 3] {
    let twelve_years_before =
        event_date.checked_sub_months(chrono::Months::new(12 * 12)).unwrap_or(event_date);
    [
        DemoGroup {
            name_zh: "业余高段组",
            name_latin: "High dan",
            band: Band { rank_low: Some(Rank::Dan(5).value()), ..Band::default() },
        },
        DemoGroup { name_zh: "公开组", name_latin: "Open", band: Band::default() },
        DemoGroup {
            name_zh: "少儿组",
            name_latin: "Juniors",
            band: Band { born_on_or_after: Some(twelve_years_before), ..Band::default() },
        },
    ]
}

/// `n` demo entrants for `seed`; see the module docs.
pub fn demo_entrants(seed: u64, n: usize) -> Vec<EntrantInput> {
    let mut p = Picker(ChaCha8Rng::seed_from_u64(seed));
    let mut out = Vec::with_capacity(n);
    let mut names_zh: HashSet<String> = HashSet::new();
    let mut names_latin: HashSet<String> = HashSet::new();
    let mut pro_taken = false;
    for _ in 0..n {
        let is_pro = !pro_taken && p.per_mille(PRO_PER_MILLE);
        pro_taken |= is_pro;
        let age = if is_pro {
            p.between(18, 35)
        } else {
            let band = p.weighted(AGE_BANDS, |b| b.2);
            p.between(band.0, band.1)
        };
        let male_percent = if age < 18 { 70 } else { 85 };
        let sex = if p.below(100) < male_percent { Sex::M } else { Sex::F };

        let birth_year = DEMO_REFERENCE_DATE.year() - 1 - age as i32;
        let birth_date = NaiveDate::from_yo_opt(birth_year, p.between(1, 365)).unwrap_or(DEMO_REFERENCE_DATE);

        // Names: retry until both the Chinese and the Latin full name are new.
        let mut attempt = 0;
        let (surname, surname_py, given, given_py) = loop {
            let (surname, surname_py, _) = *p.weighted(SURNAMES, |s| s.2);
            let (given, given_py) = given_name(&mut p, sex, birth_year, surname);
            attempt += 1;
            let zh = format!("{surname}{given}");
            let latin = format!("{surname_py} {given_py}");
            if attempt > 200 || (!names_zh.contains(&zh) && !names_latin.contains(&latin)) {
                names_zh.insert(zh);
                names_latin.insert(latin);
                break (surname, surname_py, given, given_py);
            }
        };

        let rank = if is_pro {
            Rank::Pro(p.between(1, 3) as u8)
        } else {
            let r = p.weighted(AMATEUR_RANKS, |r| r.1).0;
            // Young children rarely reach the top amateur ranks.
            let cap: u8 = match age {
                0..=9 => 3,
                10..=12 => 5,
                _ => 7,
            };
            if r > Rank::Dan(cap) {
                Rank::Dan(p.between(1, u32::from(cap)) as u8)
            } else {
                r
            }
        };
        let rating = if !is_pro && p.below(100) < 5 {
            None
        } else {
            Some(rating_for(rank) + p.between(0, 98) as i32 - 49)
        };

        let (unit, region) = if is_pro {
            ("国家围棋队", "北京市")
        } else if age <= 12 && p.below(2) == 0 {
            *p.one(PRIMARY_SCHOOLS)
        } else if (13..=17).contains(&age) && p.below(2) == 0 {
            *p.one(SECONDARY_SCHOOLS)
        } else if (18..=22).contains(&age) && p.below(10) < 6 {
            *p.one(UNIVERSITIES)
        } else {
            *p.one(CLUBS)
        };
        // A few adults enter as individuals: no unit, only their region.
        let unit = if age >= 26 && p.below(100) < 5 { "" } else { unit };

        let notes = if age < 12 && p.below(10) == 0 {
            "家长陪同"
        } else if p.below(100) < 3 {
            "素食"
        } else {
            ""
        };

        out.push(EntrantInput {
            family_name_zh: surname.to_string(),
            given_name_zh: given.to_string(),
            family_name_latin: surname_py.to_string(),
            given_name_latin: given_py,
            rank,
            rating,
            unit: unit.to_string(),
            region: region.to_string(),
            birth_date: Some(birth_date),
            sex: Some(sex),
            notes: notes.to_string(),
            egd_pin: String::new(),
            federation_id: String::new(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entrant::has_cjk;
    use std::collections::HashMap;

    fn age_on_reference(e: &EntrantInput) -> i32 {
        let b = e.birth_date.unwrap();
        let mut age = DEMO_REFERENCE_DATE.year() - b.year();
        if (DEMO_REFERENCE_DATE.month(), DEMO_REFERENCE_DATE.day()) < (b.month(), b.day()) {
            age -= 1;
        }
        age
    }

    #[test]
    fn same_seed_same_entrants_and_prefixes_agree() {
        assert_eq!(demo_entrants(42, 120), demo_entrants(42, 120));
        assert_ne!(demo_entrants(42, 20), demo_entrants(43, 20));
        assert_eq!(demo_entrants(7, 50)[..], demo_entrants(7, 200)[..50]);
        assert!(demo_entrants(1, 0).is_empty());
    }

    #[test]
    fn snapshot_pins_the_stream() {
        // If this changes, demo data changed for everybody: ChaCha, the tables or the picking.
        let e = demo_entrants(2026, 3);
        let short: Vec<String> = e
            .iter()
            .map(|e| {
                format!(
                    "{} {} {} {:?} {} {} {} {:?}",
                    e.full_name_zh(),
                    e.full_name_latin(),
                    e.rank,
                    e.rating,
                    e.unit,
                    e.region,
                    e.birth_date.unwrap(),
                    e.sex.unwrap()
                )
            })
            .collect();
        assert_eq!(short, SNAPSHOT, "{short:#?}");
    }

    const SNAPSHOT: [&str; 3] = [
        "马磊 Ma Lei 5k Some(1632) 昆明棋院 云南省 2018-04-02 M",
        "张欣怡 Zhang Xinyi 2d Some(2247) 华中师范大学第一附属中学 湖北省 2009-05-01 F",
        "王一鸣 Wang Yiming 6d Some(2601) 大连市围棋协会 辽宁省 2004-03-12 M",
    ];

    #[test]
    fn a_field_of_150_is_plausible() {
        let seed = 20260101;
        let field = demo_entrants(seed, 150);
        assert_eq!(field.len(), 150);
        let zh: HashSet<String> = field.iter().map(EntrantInput::full_name_zh).collect();
        let latin: HashSet<String> = field.iter().map(EntrantInput::full_name_latin).collect();
        assert_eq!((zh.len(), latin.len()), (150, 150), "names are unique");

        let today = NaiveDate::from_ymd_opt(2026, 6, 1).unwrap();
        let mut by_kind: HashMap<&str, usize> = HashMap::new();
        for e in &field {
            assert_eq!(e.validate_on(today), Ok(()), "{e:?}");
            assert!(has_cjk(&e.family_name_zh) && has_cjk(&e.given_name_zh));
            assert!((1..=2).contains(&e.given_name_zh.chars().count()));
            let age = age_on_reference(e);
            assert!((7..=80).contains(&age), "{age}");
            if age < 10 {
                assert!(e.rank <= Rank::Dan(3), "{e:?}");
            }
            if age <= 12 {
                assert!(e.rank <= Rank::Dan(5), "{e:?}");
            }
            if PRIMARY_SCHOOLS.iter().any(|(u, _)| *u == e.unit) {
                assert!(age <= 12, "{e:?}");
            }
            if SECONDARY_SCHOOLS.iter().any(|(u, _)| *u == e.unit) {
                assert!((13..=17).contains(&age), "{e:?}");
            }
            if let Some(r) = e.rating {
                assert!((r - rating_for(e.rank)).abs() <= 49, "{e:?}");
            }
            if !e.unit.is_empty() {
                let known = CLUBS
                    .iter()
                    .chain(PRIMARY_SCHOOLS)
                    .chain(SECONDARY_SCHOOLS)
                    .chain(UNIVERSITIES)
                    .chain([&("国家围棋队", "北京市")]);
                assert!(known.clone().any(|(u, r)| *u == e.unit && *r == e.region), "{e:?}");
            }
            let kind = match e.rank {
                Rank::Kyu(_) => "kyu",
                Rank::Dan(1..=5) => "dan1-5",
                Rank::Dan(_) => "dan6+",
                Rank::Pro(_) => "pro",
            };
            *by_kind.entry(kind).or_default() += 1;
        }
        let count = |k: &str| by_kind.get(k).copied().unwrap_or(0);
        assert!(count("dan1-5") >= 75, "{by_kind:?}");
        assert!((15..=60).contains(&count("kyu")), "{by_kind:?}");
        assert!((1..=20).contains(&count("dan6+")), "{by_kind:?}");
        assert!(count("pro") <= 1);
        let women = field.iter().filter(|e| e.sex == Some(Sex::F)).count();
        assert!((10..=60).contains(&women), "{women}");
        let children = field.iter().filter(|e| age_on_reference(e) < 18).count();
        let veterans = field.iter().filter(|e| age_on_reference(e) >= 60).count();
        assert!(children >= 40 && veterans >= 3, "{children} {veterans}");
        let surnames: HashSet<&str> = field.iter().map(|e| e.family_name_zh.as_str()).collect();
        assert!(surnames.len() >= 25);
        let regions: HashSet<&str> = field.iter().map(|e| e.region.as_str()).collect();
        assert!(regions.len() >= 8);
    }

    #[test]
    fn latin_names_are_the_pinyin_of_the_chinese_names() {
        for e in demo_entrants(99, 300) {
            let surname = SURNAMES.iter().find(|s| s.0 == e.family_name_zh).unwrap();
            assert_eq!(e.family_name_latin, surname.1);
            let syllables: Vec<&str> = e.given_name_zh.chars().map(pinyin_of).collect();
            assert_eq!(e.given_name_latin, join_pinyin(&syllables), "{}", e.given_name_zh);
        }
        let mut rng = Picker(ChaCha8Rng::seed_from_u64(0));
        let (zh, latin) = given_name(&mut rng, Sex::F, 2012, "王");
        assert_eq!(latin, join_pinyin(&zh.chars().map(pinyin_of).collect::<Vec<_>>()));
        assert_eq!(join_pinyin(&["zi", "han"]), "Zihan");
        assert_eq!(join_pinyin(&["jia", "an"]), "Jia'an");
        assert_eq!(join_pinyin(&["xin", "yi"]), "Xinyi");
        assert_eq!(join_pinyin(&["wei"]), "Wei");
    }

    #[test]
    fn the_pinyin_table_holds_exactly_the_characters_used() {
        let lists = [MALE_OLD, MALE_YOUNG, MALE_ANY, FEMALE_OLD, FEMALE_YOUNG, FEMALE_ANY];
        let used: HashSet<char> = lists.iter().flat_map(|l| l.iter()).flat_map(|g| g.chars()).collect();
        let mut table = HashSet::new();
        for (c, py) in NAME_PINYIN {
            assert!(table.insert(*c), "{c} listed twice");
            assert!(!py.is_empty() && py.chars().all(|ch| ch.is_ascii_lowercase()), "{py}");
        }
        assert_eq!(
            used,
            table,
            "unused: {:?}; missing: {:?}",
            table.difference(&used),
            used.difference(&table)
        );
        for list in lists {
            let unique: HashSet<&&str> = list.iter().collect();
            assert_eq!(unique.len(), list.len(), "a name is listed twice");
            assert!(list.iter().all(|g| (1..=2).contains(&g.chars().count())));
        }
        for (s, py, w) in SURNAMES {
            assert!(*w > 0 && py.chars().next().unwrap().is_ascii_uppercase(), "{s}");
        }
    }

    #[test]
    fn large_fields_stay_unique() {
        let field = demo_entrants(5, 1500);
        let zh: HashSet<String> = field.iter().map(EntrantInput::full_name_zh).collect();
        let latin: HashSet<String> = field.iter().map(EntrantInput::full_name_latin).collect();
        assert_eq!((zh.len(), latin.len()), (1500, 1500));
    }

    #[test]
    fn tournament_name_in_both_languages() {
        let n = demo_tournament_name();
        assert!(has_cjk(n.zh) && !has_cjk(n.en));
    }

    /// The demo open's bands (the event's own; seed 000 has no group rule) place its field in
    /// every group: 业余高段组 5段 and above, 少儿组 born on or after 12 years before the
    /// event, 公开组 everyone else; no entrant is left without a group.
    #[test]
    fn the_demo_field_fills_all_three_groups_by_their_bands() {
        let date = NaiveDate::from_ymd_opt(2026, 12, 5).unwrap();
        let groups = demo_groups(date);
        let kids_from = NaiveDate::from_ymd_opt(2014, 12, 5).unwrap();
        assert_eq!(groups[2].band.born_on_or_after, Some(kids_from));
        let bands: Vec<(i32, Band)> = (0..).zip(groups.iter().map(|g| g.band.clone())).collect();
        let field = demo_entrants(2026, 128);
        let cands: Vec<crate::groups::Candidate> = (0..)
            .zip(&field)
            .map(|(id, e)| crate::groups::Candidate {
                id,
                rank_value: e.rank.value(),
                birth_date: e.birth_date,
            })
            .collect();
        let placed = crate::groups::propose(&bands, &cands);
        let sizes: Vec<usize> =
            (0..3).map(|g| placed.iter().filter(|(_, p)| *p == Some(g)).count()).collect();
        assert!(sizes.iter().all(|&n| n >= 4), "{sizes:?}");
        for (e, (_, p)) in field.iter().zip(&placed) {
            let (high, kid) =
                (e.rank.value() >= Rank::Dan(5).value(), e.birth_date.is_some_and(|b| b >= kids_from));
            assert_eq!(
                *p,
                Some(if high {
                    0
                } else if kid {
                    2
                } else {
                    1
                }),
                "{e:?}"
            );
        }
    }
}

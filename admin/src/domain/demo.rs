//! STUB until h-import lands.
use super::entrant::{EntrantInput, Rank, Sex};

pub fn demo_entrants(seed: u64, n: usize) -> Vec<EntrantInput> {
    let fam = ["王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴"];
    let fam_l = ["Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Zhao", "Huang", "Zhou", "Wu"];
    let giv = ["伟", "芳", "静", "磊", "洋", "勇", "杰", "娟", "涛", "明"];
    let giv_l = ["Wei", "Fang", "Jing", "Lei", "Yang", "Yong", "Jie", "Juan", "Tao", "Ming"];
    (0..n)
        .map(|i| {
            let k = (i as u64).wrapping_mul(2654435761).wrapping_add(seed) as usize;
            let mut e = EntrantInput::new(Rank::parse(&format!("{}d", 1 + k % 7)).unwrap_or(Rank::LOWEST));
            e.family_name_zh = fam[k % 10].into();
            e.given_name_zh = format!("{}{}", giv[(k / 10) % 10], giv[i % 10]);
            e.family_name_latin = fam_l[k % 10].into();
            e.given_name_latin = format!("{}{}", giv_l[(k / 10) % 10], giv_l[i % 10].to_lowercase());
            e.rating = Some(1800 + (k % 700) as i32);
            e.unit = format!("棋院{}", k % 12);
            e.region = "北京".into();
            e.sex = Some(if k.is_multiple_of(3) { Sex::F } else { Sex::M });
            e
        })
        .collect()
}

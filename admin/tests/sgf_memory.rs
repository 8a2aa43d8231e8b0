//! The memory an uploaded game record costs at peak is a small multiple of the
//! file's size. A counting allocator measures what `domain::results::check_sgf` (decode, read,
//! replay, count — what the upload does) allocates at most beyond what it started with.
//!
//! Before the one-pass reader (`read_tree` in rules/src/sgf/grammar.rs), a 500 KB main line of
//! 85,000 moves cost 95 MB (185×): sgf-parse tokenized the whole text and built a node tree
//! beside the scanner's own main line. Now the grammar hands the main line node by node to the
//! record, into ~40-byte steps reserved once: 6.8× for the main line, 4.8× for the setups
//! (`-- --nocapture` prints the figures); the bound is 12×.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            let now = NOW.fetch_add(l.size(), Ordering::Relaxed) + l.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        NOW.fetch_sub(l.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static A: Counting = Counting;

/// One measurement at a time (the counters are global).
static ONE: Mutex<()> = Mutex::new(());

/// Peak bytes allocated by `f` beyond what was allocated when it started.
fn peak_of(f: impl FnOnce()) -> usize {
    let _g = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let base = NOW.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    f();
    PEAK.load(Ordering::Relaxed) - base
}

fn check(bytes: &[u8]) -> usize {
    let rules = rules::ruleset::RuleSet::chinese_2002();
    peak_of(|| {
        let _ = admin::domain::results::check_sgf(&rules, 0, bytes);
    })
}

fn point(i: usize) -> String {
    let a = b'a' + (i % 19) as u8;
    let b = b'a' + ((i / 19) % 19) as u8;
    format!("{}{}", a as char, b as char)
}

/// Shapes of a ~500 KB record: a long main line, a wide tree of variations, long comments,
/// many setup stones.
fn shapes() -> Vec<(&'static str, String)> {
    let target = 500 * 1024;
    let mut main = String::from("(;FF[4]GM[1]SZ[19]KM[7.5]");
    let mut i = 0;
    while main.len() < target {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        main.push_str(&format!(";{c}[{}]", point(i)));
        i += 1;
    }
    main.push(')');
    let mut tree = String::from("(;FF[4]GM[1]SZ[19]KM[7.5]");
    let mut i = 0;
    while tree.len() < target {
        tree.push_str(&format!("(;B[{}];W[{}])", point(i), point(i + 1)));
        i += 2;
    }
    tree.push(')');
    let comment = format!("(;FF[4]GM[1]SZ[19]KM[7.5]C[{}];B[pd];W[dp])", "注".repeat(target / 3));
    let mut setup = String::from("(;FF[4]GM[1]SZ[19]KM[7.5]");
    while setup.len() < target {
        setup.push_str(";AB[aa][bb][cc][dd][ee][ff][gg][hh]");
    }
    setup.push(')');
    vec![("main line", main), ("variations", tree), ("comment", comment), ("setup", setup)]
}

#[test]
fn a_game_record_costs_a_small_multiple_of_its_size() {
    for (what, sgf) in shapes() {
        let peak = check(sgf.as_bytes());
        let ratio = peak as f64 / sgf.len() as f64;
        eprintln!("{what}: {} bytes, peak {} bytes, {ratio:.1}x", sgf.len(), peak);
        assert!(peak <= 12 * sgf.len(), "{what}: {} bytes cost {peak} at peak ({ratio:.1}x)", sgf.len());
    }
}

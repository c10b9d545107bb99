//! Runs one target over its corpus and then over mutations of it, for a
//! count of inputs or a time; a panic (on any thread) or an input slower
//! than the hang limit is written out so it can join the corpus.

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use super::{Target, corpus, mutate};

/// An input that takes more CPU than this counts as a hang: a second in
/// release, and more in a debug build, whose code runs many times slower.
/// CPU time, not wall time: the machine is shared, and a target that waits
/// (the engine's) says so itself when a wait runs out.
pub const HANG: Duration = if cfg!(debug_assertions) {
    Duration::from_secs(5)
} else {
    Duration::from_secs(1)
};
/// An input still running after this is stuck for good: the run stops.
const STUCK: Duration = Duration::from_secs(60);

pub struct Budget {
    pub inputs: u64,
    pub time: Option<Duration>,
    pub seed: u64,
}

#[derive(Default)]
pub struct Report {
    pub inputs: u64,
    pub failures: Vec<String>,
    pub hangs: Vec<String>,
    pub slowest: Duration,
}

static PANICS: AtomicU64 = AtomicU64::new(0);
/// While a target runs its panics are counted, not printed.
static RUNNING: AtomicBool = AtomicBool::new(false);
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

/// Counts panics on every thread: a target's spawned tasks panic where no
/// `catch_unwind` of ours sees them.
fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let print = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !RUNNING.load(Ordering::SeqCst) {
                return print(info);
            }
            PANICS.fetch_add(1, Ordering::SeqCst);
            let at = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            let what = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            *LAST_PANIC.lock().unwrap_or_else(|p| p.into_inner()) = format!("{what}{at}");
        }));
    });
}

pub fn failures_dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("fuzz-failures")
        .join(target)
}

fn write_out(target: &str, input: &[u8]) -> PathBuf {
    let dir = failures_dir(target);
    let _ = std::fs::create_dir_all(&dir);
    let name = format!("{:016x}", fxhash(input));
    let path = dir.join(name);
    let _ = std::fs::write(&path, input);
    path
}

fn fxhash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100000001b3)
    })
}

/// Aborts the process when one input runs past `STUCK`, after writing it
/// out: a hang would otherwise hold the run (and CI) forever.
struct Watchdog {
    current: Arc<Running>,
}

/// The input under way, and since when.
type Running = Mutex<Option<(Instant, Vec<u8>)>>;

impl Watchdog {
    fn start(target: &'static str) -> Watchdog {
        let current: Arc<Running> = Arc::new(Mutex::new(None));
        let watched = Arc::downgrade(&current);
        std::thread::spawn(move || {
            while let Some(current) = watched.upgrade() {
                let stuck = current
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .as_ref()
                    .filter(|(at, _)| at.elapsed() > STUCK)
                    .map(|(_, input)| input.clone());
                drop(current);
                if let Some(input) = stuck {
                    let path = write_out(target, &input);
                    eprintln!(
                        "fuzz {target}: an input ran past {STUCK:?}; it is in {}",
                        path.display()
                    );
                    std::process::abort();
                }
                std::thread::park_timeout(Duration::from_millis(500));
            }
        });
        Watchdog { current }
    }

    fn set(&self, input: Option<&[u8]>) {
        *self.current.lock().unwrap_or_else(|p| p.into_inner()) =
            input.map(|i| (Instant::now(), i.to_vec()));
    }
}

pub fn run(target: &Target, budget: &Budget) -> Report {
    count_panics();
    let seeds = corpus::load(target.name);
    assert!(
        !seeds.is_empty(),
        "fuzz/corpus/{} has no seeds",
        target.name
    );
    // What an earlier run wrote out is kept in the corpus or forgotten.
    let _ = std::fs::remove_dir_all(failures_dir(target.name));
    let mut rng = fastrand::Rng::with_seed(budget.seed);
    let watchdog = Watchdog::start(target.name);
    RUNNING.store(true, Ordering::SeqCst);
    let started = Instant::now();
    let mut report = Report::default();
    let one = |input: &[u8], report: &mut Report| {
        let before = PANICS.load(Ordering::SeqCst);
        watchdog.set(Some(input));
        let t0 = thread_cpu();
        let caught = std::panic::catch_unwind(AssertUnwindSafe(|| (target.run)(input)));
        let took = thread_cpu().saturating_sub(t0);
        watchdog.set(None);
        report.inputs += 1;
        report.slowest = report.slowest.max(took);
        if caught.is_err() || PANICS.load(Ordering::SeqCst) != before {
            let path = write_out(target.name, input);
            let msg = LAST_PANIC.lock().unwrap_or_else(|p| p.into_inner()).clone();
            report.failures.push(format!("{}: {msg}", path.display()));
        } else if took > HANG {
            let path = write_out(target.name, input);
            report
                .hangs
                .push(format!("{} took {took:?}", path.display()));
        }
    };
    for seed in &seeds {
        one(seed, &mut report);
    }
    loop {
        let done = match budget.time {
            Some(t) => started.elapsed() >= t,
            None => report.inputs >= budget.inputs,
        };
        if done {
            break;
        }
        let base = &seeds[rng.usize(..seeds.len())];
        let input = mutate::mutate(&mut rng, base, &seeds, target.max_len);
        one(&input, &mut report);
    }
    RUNNING.store(false, Ordering::SeqCst);
    report
}

/// CPU time this thread has used: a current-thread runtime runs a
/// target's tasks on it too.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which `ts` is.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The process's peak resident memory in KiB (Linux's VmHWM).
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

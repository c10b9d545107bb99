//! Driving the real binary in tmux: keys in with send-keys, the screen back
//! with capture-pane.

use std::process::Command;
use std::time::Duration;

pub struct Tmux {
    pub socket: String,
}

impl Tmux {
    pub fn available() -> bool {
        let ok = Command::new("tmux")
            .arg("-V")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        if !ok {
            if std::env::var_os("CI").is_some() {
                panic!("tmux is required in CI for the terminal tests (apt-get install tmux)");
            }
            eprintln!("\n!!!!! SKIPPED: tmux is not installed !!!!!\n");
        }
        ok
    }

    /// pairdbg with `args` as the pane's only program.
    pub fn start(name: &str, cwd: &std::path::Path, args: &[&str]) -> Tmux {
        let mut cmd = vec![env!("CARGO_BIN_EXE_pairdbg").to_string()];
        cmd.extend(args.iter().map(|s| s.to_string()));
        Tmux::run(name, cwd, &cmd.join(" "))
    }

    /// pairdbg with `args`, keeping its per-workspace state under `state`.
    pub fn start_with_state(
        name: &str,
        cwd: &std::path::Path,
        state: &std::path::Path,
        args: &[&str],
    ) -> Tmux {
        let mut cmd = vec![env!("CARGO_BIN_EXE_pairdbg").to_string()];
        cmd.extend(args.iter().map(|s| s.to_string()));
        Tmux::run_in(name, cwd, state, &cmd.join(" "))
    }

    pub fn run(name: &str, cwd: &std::path::Path, command: &str) -> Tmux {
        // What pairdbg remembers per workspace stays out of the user's own
        // state directory.
        let state = std::env::temp_dir().join(format!("pairdbg-test-state-{}", std::process::id()));
        Tmux::run_in(name, cwd, &state, command)
    }

    fn run_in(name: &str, cwd: &std::path::Path, state: &std::path::Path, command: &str) -> Tmux {
        let socket = format!("pairdbg-{name}-{}", std::process::id());
        let status = Command::new("tmux")
            .args([
                "-L",
                &socket,
                "new-session",
                "-d",
                "-x",
                "120",
                "-y",
                "36",
                "-e",
            ])
            .arg(format!("XDG_STATE_HOME={}", state.display()))
            // The title says when a frame is half drawn: tmux 3.3 shows
            // the grid as it reads it, not frame by frame.
            .args(["-e", "PAIRDBG_FRAME_MARKS=1"])
            .arg("-c")
            .arg(cwd)
            .args(["--", command])
            .status()
            .expect("tmux");
        assert!(status.success());
        Tmux { socket }
    }

    /// The pane's title and its grid, read by one tmux command so that
    /// no output lands between the two.
    fn capture_with(&self, extra: &[&str]) -> (String, String) {
        let out = Command::new("tmux")
            .args([
                "-L",
                &self.socket,
                "display-message",
                "-p",
                "#{pane_title}",
                ";",
            ])
            .args(["capture-pane", "-p"])
            .args(extra)
            .output()
            .expect("capture-pane");
        let text = String::from_utf8_lossy(&out.stdout);
        let (title, grid) = text.split_once('\n').unwrap_or((&text, ""));
        (title.to_string(), grid.to_string())
    }

    /// A grid that is not a frame half drawn, or the last one read when
    /// every read for a while caught one.
    fn whole(&self, extra: &[&str]) -> String {
        let mut grid = String::new();
        for _ in 0..200 {
            let (title, now) = self.capture_with(extra);
            grid = now;
            if title != "pairdbg drawing" {
                break;
            }
        }
        grid
    }

    fn capture(&self) -> String {
        self.whole(&[])
    }

    /// The screen with its colours, as SGR escape sequences.
    pub fn escapes(&self) -> String {
        self.whole(&["-e"])
    }

    /// Waits until the coloured screen satisfies `pred` (15 s at most).
    pub async fn wait_for_escapes(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        poll(what, || self.escapes(), pred).await
    }

    /// The screen once two captures in a row agree: a single capture can
    /// catch a frame half drawn.
    pub fn screen(&self) -> String {
        let mut last = self.capture();
        for _ in 0..10 {
            let now = self.capture();
            if now == last {
                return now;
            }
            last = now;
        }
        last
    }

    pub fn keys(&self, keys: &[&str]) {
        let status = Command::new("tmux")
            .args(["-L", &self.socket, "send-keys"])
            .args(keys)
            .status()
            .expect("send-keys");
        assert!(status.success());
    }

    /// Waits until the screen satisfies `pred` (15 s at most).
    pub async fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        poll_within(what, Duration::from_secs(15), || self.screen(), pred).await
    }

    /// As `wait_for`, for what takes longer than a keypress: a build before
    /// the first stop.
    pub async fn wait_for_within(
        &self,
        what: &str,
        within: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> String {
        poll_within(what, within, || self.screen(), pred).await
    }

    /// Gives the terminal another size, as a person resizing the window.
    pub fn resize(&self, width: u16, height: u16) {
        let status = Command::new("tmux")
            .args(["-L", &self.socket, "resize-window", "-x"])
            .arg(width.to_string())
            .arg("-y")
            .arg(height.to_string())
            .status()
            .expect("resize-window");
        assert!(status.success());
    }

    pub fn pane_pid(&self) -> Option<u32> {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "list-panes", "-F", "#{pane_pid}"])
            .output()
            .ok()?;
        String::from_utf8_lossy(&out.stdout).trim().parse().ok()
    }

    pub fn alive(&self) -> bool {
        Command::new("tmux")
            .args(["-L", &self.socket, "has-session"])
            .stderr(std::process::Stdio::null())
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .stderr(std::process::Stdio::null())
            .status();
    }
}

/// The line the source pane marks with the current-line arrow.
pub fn current_line(screen: &str) -> Option<u32> {
    screen.lines().find_map(|l| {
        let after = l.split('→').nth(1)?;
        after.split_whitespace().next()?.parse().ok()
    })
}

/// The last exit code a shell printed with `echo PAIRDBG-EXIT=$?`.
pub fn shell_exit(screen: &str) -> Option<i32> {
    screen
        .split("PAIRDBG-EXIT=")
        .skip(1)
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits.parse().ok()
        })
        .last()
}

/// Reads `read` until `pred` holds of it (15 s at most), checking every 50 ms.
async fn poll(what: &str, read: impl Fn() -> String, pred: impl Fn(&str) -> bool) -> String {
    poll_within(what, Duration::from_secs(15), read, pred).await
}

async fn poll_within(
    what: &str,
    within: Duration,
    read: impl Fn() -> String,
    pred: impl Fn(&str) -> bool,
) -> String {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let s = read();
        if pred(&s) {
            return s;
        }
        if tokio::time::Instant::now() > deadline {
            panic!("timed out waiting for {what}; the screen:\n{s}");
        }
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
}

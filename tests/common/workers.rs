//! A Python program whose two worker processes loop for ever: the child
//! sessions' tests stop and pause them.

/// The main program: starts `looper.py a` and `looper.py b` and waits.
pub const LOOPERS: &str = "\
import os, subprocess, sys

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'looper.py')

if __name__ == '__main__':
    procs = [subprocess.Popen([sys.executable, WORKER, name]) for name in ('a', 'b')]
    for p in procs:
        p.wait()
";

/// `looper.py`: counts for ever; line 5 is the loop's body.
pub const LOOPER: &str = "\
import sys, time
name = sys.argv[1]
count = 0
while True:
    count += 1
    time.sleep(0.01)
";

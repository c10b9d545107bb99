// Loaded into the program through NODE_OPTIONS: js-debug sends no `exited`
// event, so the program's exit code is written where pairdbg reads it.
'use strict';
(() => {
  const file = process.env.PAIRDBG_EXIT_FILE;
  // Every Node process the program starts inherits NODE_OPTIONS; only the
  // outermost one speaks for the program. The marker is inherited too.
  if (!file || process.env.PAIRDBG_EXIT_CLAIMED) return;
  // js-debug's watchdog is started by its bootloader before this runs.
  if (/watchdog\.js$/.test(process.argv[1] || '')) return;
  process.env.PAIRDBG_EXIT_CLAIMED = String(process.pid);
  process.on('exit', (code) => {
    try {
      require('fs').writeFileSync(file, String(code ?? process.exitCode ?? 0));
    } catch (_) {
      // Nowhere to say it: the session then reports no exit code.
    }
  });
})();

// Loaded into the program through NODE_OPTIONS. Node's inspector leaves
// Nagle's algorithm on its socket: a CDP reply that follows an event (a
// `scriptParsed` before each evaluation's answer) waits some 40 ms for the
// debugger's delayed ACK. Node offers no setsockopt, so the socket is found
// by the inspector's port and given TCP_NODELAY through a second handle on
// its descriptor, which is never read, written or closed here.
'use strict';
(() => {
  let url;
  try {
    url = require('inspector').url();
  } catch (_) {
    return;
  }
  if (!url) return;
  const port = Number(new URL(url).port);
  if (!port) return;
  const fs = require('fs');
  const hex = ':' + port.toString(16).toUpperCase().padStart(4, '0');
  // The debugger is connected by now: js-debug's bootloader, loaded
  // before this file, waits for it.
  const established = new Set();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch (_) {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[1].endsWith(hex) && f[3] === '01') established.add(f[9]);
    }
  }
  if (!established.size) return;
  let TCP, constants;
  try {
    ({ TCP, constants } = process.binding('tcp_wrap'));
  } catch (_) {
    return;
  }
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    let link = '';
    try {
      link = fs.readlinkSync('/proc/self/fd/' + fd);
    } catch (_) {
      continue;
    }
    const m = /^socket:\[(\d+)\]$/.exec(link);
    if (!m || !established.has(m[1])) continue;
    const handle = new TCP(constants.SOCKET);
    if (handle.open(Number(fd)) === 0) {
      handle.setNoDelay(true);
      // It must not keep the program alive.
      handle.unref();
    }
  }
})();

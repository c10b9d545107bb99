// Loaded into js-debug's own Node process: turns Nagle's algorithm off on
// every socket it opens or accepts (the DAP clients, the inspector of the
// program), so a small message never waits for the peer's delayed ACK.
'use strict';
const net = require('net');
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const socket = connect.apply(this, args);
  this.setNoDelay(true);
  return socket;
};
const emit = net.Server.prototype.emit;
net.Server.prototype.emit = function (event, socket, ...rest) {
  if (event === 'connection' && socket && typeof socket.setNoDelay === 'function') {
    socket.setNoDelay(true);
  }
  return emit.call(this, event, socket, ...rest);
};

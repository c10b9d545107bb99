#!/bin/sh
# js-debug's own script (microsoft/vscode-js-debug, MIT licence), which it
# runs as `sh <its directory>/targets/node/terminateProcess.sh PID SIGNAL`
# to end a program and its children. Some packagings leave it out; without
# it js-debug cannot end the program it launched and never answers the
# launch connection's `disconnect`.

ROOT_PID=$1
SIGNAL=$2

terminateTree() {
	for cpid in $(pgrep -P $1); do
		terminateTree $cpid
	done
	kill -$SIGNAL $1 > /dev/null 2>&1
}

terminateTree $ROOT_PID

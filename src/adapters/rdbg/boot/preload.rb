# Loaded before the program.
#
# Its output reaches the session as written, not when a pipe's buffer
# fills or the program ends.
$stdout.sync = true
$stderr.sync = true

# rdbg sends no `exited` event: the exit code is written where pairdbg
# reads it. Registered before the program's own handlers, this runs last.
path = ENV.delete("PAIRDBG_EXIT_FILE")
if path
  at_exit do
    code = case $!
           when nil then 0
           when SystemExit then $!.status
           when SignalException then nil
           else 1
           end
    File.write(path, code.to_s) if code
  rescue StandardError
    nil
  end
end

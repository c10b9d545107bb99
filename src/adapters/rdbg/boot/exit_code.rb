# Loaded before the program: writes its exit code where pairdbg reads it,
# since rdbg sends no `exited` event. Registered first, it runs last.
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

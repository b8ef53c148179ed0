-- Prints wrk's summary as one JSON line (latencies in microseconds) for bench/load.ts to read.
-- With WRK_RANDOM_QUERY=1, every request carries a query string never seen before (a cache-busting flood).
if os.getenv("WRK_RANDOM_QUERY") == "1" then
  math.randomseed(os.time())
  request = function()
    return wrk.format(nil, wrk.path .. "?" .. math.random(1, 1e9) .. "=" .. math.random(1, 1e9))
  end
end

done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d,' ..
      '"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end

-- wrk script of scripts/bench-serve.sh: POSTs the lines of a file of
-- request bodies in turn (each thread from its own offset).
-- wrk -s scripts/bench-serve.lua URL -- BODIES
local bodies = {}
local i = 0
local headers = {["Content-Type"] = "application/json"}

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then bodies[#bodies + 1] = line end
  end
  i = math.random(#bodies)
end

function request()
  i = i % #bodies + 1
  return wrk.format("POST", nil, headers, bodies[i])
end

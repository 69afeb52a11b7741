-- A small JSON encoder and decoder for the engine protocol's JSON lines (Lua 5.1, no libraries).
--
-- Lua has one table type for arrays and objects; an empty table is ambiguous. Values built with
-- M.array() encode as arrays and values built with M.object() as objects, whatever they hold;
-- any other table encodes as an array when its keys are exactly 1..n (n > 0), else as an object.
-- JSON null decodes to M.null, so a key that is present with null is told from a missing key.

local M = {}

local ARRAY = { kind = "array" }
local OBJECT = { kind = "object" }
M.null = setmetatable({}, { __tostring = function() return "null" end })

function M.array(t)
    return setmetatable(t or {}, ARRAY)
end

function M.object(t)
    return setmetatable(t or {}, OBJECT)
end

local ESCAPES = { ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f", ["\n"] = "\\n",
    ["\r"] = "\\r", ["\t"] = "\\t" }

local function encode_string(s)
    return '"' .. s:gsub('[%c"\\]', function(c)
        return ESCAPES[c] or string.format("\\u%04x", c:byte())
    end) .. '"'
end

local function is_sequence(t)
    local n = 0
    for k in pairs(t) do
        if type(k) ~= "number" or k < 1 or k ~= math.floor(k) then
            return false
        end
        n = n + 1
    end
    for i = 1, n do
        if t[i] == nil then
            return false
        end
    end
    return n > 0
end

local encode

local function encode_table(t, out)
    local mt = getmetatable(t)
    if mt == ARRAY or (mt ~= OBJECT and is_sequence(t)) then
        out[#out + 1] = "["
        for i = 1, #t do
            if i > 1 then
                out[#out + 1] = ","
            end
            encode(t[i], out)
        end
        out[#out + 1] = "]"
        return
    end
    local keys = {}
    for k in pairs(t) do
        if type(k) ~= "string" then
            error("json: object key is not a string: " .. tostring(k))
        end
        keys[#keys + 1] = k
    end
    table.sort(keys) -- a stable order makes replies easy to diff
    out[#out + 1] = "{"
    for i, k in ipairs(keys) do
        if i > 1 then
            out[#out + 1] = ","
        end
        out[#out + 1] = encode_string(k)
        out[#out + 1] = ":"
        encode(t[k], out)
    end
    out[#out + 1] = "}"
end

encode = function(v, out)
    local kind = type(v)
    if v == nil or v == M.null then
        out[#out + 1] = "null"
    elseif kind == "boolean" then
        out[#out + 1] = v and "true" or "false"
    elseif kind == "number" then
        if v ~= v or v == math.huge or v == -math.huge then
            error("json: cannot encode " .. tostring(v))
        end
        if v == math.floor(v) and math.abs(v) < 2 ^ 53 then
            out[#out + 1] = string.format("%d", v)
        else
            out[#out + 1] = string.format("%.17g", v)
        end
    elseif kind == "string" then
        out[#out + 1] = encode_string(v)
    elseif kind == "table" then
        encode_table(v, out)
    else
        error("json: cannot encode a " .. kind)
    end
end

function M.encode(v)
    local out = {}
    encode(v, out)
    return table.concat(out)
end

-- Decoding ------------------------------------------------------------------------------------

local function utf8_char(cp)
    if cp < 0x80 then
        return string.char(cp)
    elseif cp < 0x800 then
        return string.char(0xC0 + math.floor(cp / 0x40), 0x80 + cp % 0x40)
    elseif cp < 0x10000 then
        return string.char(0xE0 + math.floor(cp / 0x1000), 0x80 + math.floor(cp / 0x40) % 0x40, 0x80 + cp % 0x40)
    end
    return string.char(0xF0 + math.floor(cp / 0x40000), 0x80 + math.floor(cp / 0x1000) % 0x40,
        0x80 + math.floor(cp / 0x40) % 0x40, 0x80 + cp % 0x40)
end

local decode_value

local function fail(s, pos, what)
    error(string.format("json: %s at character %d", what, pos), 0)
end

local function skip(s, pos)
    return s:find("[^ \t\r\n]", pos) or #s + 1
end

local function decode_string(s, pos)
    local parts = {}
    local i = pos + 1
    while true do
        local j = s:find('["\\]', i)
        if not j then
            fail(s, pos, "unterminated string")
        end
        parts[#parts + 1] = s:sub(i, j - 1)
        if s:sub(j, j) == '"' then
            return table.concat(parts), j + 1
        end
        local e = s:sub(j + 1, j + 1)
        local simple = { ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }
        if simple[e] then
            parts[#parts + 1] = simple[e]
            i = j + 2
        elseif e == "u" then
            local hex = s:sub(j + 2, j + 5)
            if not hex:match("^%x%x%x%x$") then
                fail(s, j, "bad \\u escape")
            end
            local cp = tonumber(hex, 16)
            i = j + 6
            if cp >= 0xD800 and cp < 0xDC00 and s:sub(i, i + 1) == "\\u" then
                local lo = tonumber(s:sub(i + 2, i + 5), 16)
                if lo and lo >= 0xDC00 and lo < 0xE000 then
                    cp = 0x10000 + (cp - 0xD800) * 0x400 + (lo - 0xDC00)
                    i = i + 6
                end
            end
            parts[#parts + 1] = utf8_char(cp)
        else
            fail(s, j, "bad escape")
        end
    end
end

decode_value = function(s, pos)
    pos = skip(s, pos)
    local c = s:sub(pos, pos)
    if c == "{" then
        local obj = M.object()
        pos = skip(s, pos + 1)
        if s:sub(pos, pos) == "}" then
            return obj, pos + 1
        end
        while true do
            pos = skip(s, pos)
            if s:sub(pos, pos) ~= '"' then
                fail(s, pos, "expected a string key")
            end
            local key
            key, pos = decode_string(s, pos)
            pos = skip(s, pos)
            if s:sub(pos, pos) ~= ":" then
                fail(s, pos, "expected ':'")
            end
            obj[key], pos = decode_value(s, pos + 1)
            pos = skip(s, pos)
            local d = s:sub(pos, pos)
            if d == "}" then
                return obj, pos + 1
            elseif d ~= "," then
                fail(s, pos, "expected ',' or '}'")
            end
            pos = pos + 1
        end
    elseif c == "[" then
        local arr = M.array()
        pos = skip(s, pos + 1)
        if s:sub(pos, pos) == "]" then
            return arr, pos + 1
        end
        while true do
            arr[#arr + 1], pos = decode_value(s, pos)
            pos = skip(s, pos)
            local d = s:sub(pos, pos)
            if d == "]" then
                return arr, pos + 1
            elseif d ~= "," then
                fail(s, pos, "expected ',' or ']'")
            end
            pos = pos + 1
        end
    elseif c == '"' then
        return decode_string(s, pos)
    elseif s:sub(pos, pos + 3) == "true" then
        return true, pos + 4
    elseif s:sub(pos, pos + 4) == "false" then
        return false, pos + 5
    elseif s:sub(pos, pos + 3) == "null" then
        return M.null, pos + 4
    end
    local num = s:match("^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
    if num and num ~= "" and tonumber(num) then
        return tonumber(num), pos + #num
    end
    fail(s, pos, "unexpected input")
end

function M.decode(s)
    local v, pos = decode_value(s, 1)
    pos = skip(s, pos)
    if pos <= #s then
        fail(s, pos, "trailing characters")
    end
    return v
end

return M

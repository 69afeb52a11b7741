-- A thousand-engine/1 driver for mekedron/thousand (pure Lua 5.1), for `thousand conform`.
--
--   lua5.1 examples/adapters/mekedron/thousand_engine.lua russian [--engine-dir DIR]
--
-- The first argument names one of the engine's built-in rule configurations
-- (core/rule_config.lua, M.builtins). The engine is loaded from its own folder, never copied:
-- --engine-dir DIR, else $MEKEDRON_THOUSAND_DIR, else ../shared/engines/mekedron-thousand
-- beside the repository root. The driver only translates: the legal actions it lists are those the
-- engine's own validators accept (core/auction.lua, core/talon.lua, core/tricks.lua,
-- core/marriages.lua), and every action goes through app/session.lua's public mutators. Where the
-- engine and the protocol see a deal differently, the handshake's capabilities say so
-- (`projection`, `not_supported`); see examples/adapters/mekedron/README.md.

local PROTOCOL = "thousand-engine/1"

local function script_dir()
    local src = debug.getinfo(1, "S").source
    local path = src:sub(1, 1) == "@" and src:sub(2) or src
    return path:match("^(.*)/[^/]*$") or "."
end

local HERE = script_dir()
package.path = HERE .. "/?.lua;" .. package.path
local json = require("json_lines")

-- Command line ------------------------------------------------------------------------------
local config_name, engine_dir
-- --as-is: do not give a no-talon deal the talon record the engine scores from (bug 4), to show the bug.
local as_is = false
do
    local i = 1
    while arg[i] do
        local a = arg[i]
        if a == "--as-is" then
            as_is = true
            i = i + 1
        elseif a == "--engine-dir" then
            engine_dir = arg[i + 1]
            i = i + 2
        elseif a:sub(1, 13) == "--engine-dir=" then
            engine_dir = a:sub(14)
            i = i + 1
        elseif config_name == nil then
            config_name = a
            i = i + 1
        else
            io.stderr:write("thousand_engine.lua: unexpected argument " .. a .. "\n")
            os.exit(2)
        end
    end
end
config_name = config_name or "russian"
engine_dir = engine_dir or os.getenv("MEKEDRON_THOUSAND_DIR") or (HERE .. "/../../../../shared/engines/mekedron-thousand")

local probe = io.open(engine_dir .. "/app/session.lua", "r")
if not probe then
    io.stderr:write("thousand_engine.lua: no mekedron/thousand engine at " .. engine_dir ..
        " (give --engine-dir DIR or set MEKEDRON_THOUSAND_DIR)\n")
    os.exit(2)
end
probe:close()
package.path = engine_dir .. "/?.lua;" .. package.path

local rule_config = require("core.rule_config")
local deck_module = require("core.deck")
local dealing = require("core.dealing")
local card_module = require("core.card")
local auction_module = require("core.auction")
local talon_module = require("core.talon")
local marriages_module = require("core.marriages")
local session_module = require("app.session")

local CONFIG = rule_config.builtins[config_name]
if not CONFIG then
    local names = {}
    for k in pairs(rule_config.builtins) do
        names[#names + 1] = k
    end
    table.sort(names)
    io.stderr:write("thousand_engine.lua: no built-in configuration " .. config_name .. " (one of: " ..
        table.concat(names, ", ") .. ")\n")
    os.exit(2)
end
local N = CONFIG.players.count

-- The engine shuffles its own deck (app/session.lua build_initial_state calls core.deck's shuffle).
-- The harness gives the cards instead: the driver replaces shuffle with a function handing out
-- the one deck that deals the requested hands, and refuses any shuffle it did not prepare (an
-- engine-side redeal would otherwise deal cards the harness never saw).
local pending_deck = nil
deck_module.shuffle = function()
    local d = pending_deck
    pending_deck = nil
    if d == nil then
        error("the engine wanted to shuffle a deck the harness did not give (a redeal of its own)", 0)
    end
    return d
end

-- Cards and seats -----------------------------------------------------------------------------
local SUIT_OF = { S = "spades", C = "clubs", D = "diamonds", H = "hearts" }
local LETTER_OF = { spades = "S", clubs = "C", diamonds = "D", hearts = "H" }
local RANK_OK = { ["9"] = true, ["10"] = true, J = true, Q = true, K = true, A = true }

local function to_card(text)
    if type(text) ~= "string" then
        error("not a card: " .. tostring(text), 0)
    end
    local rank, suit = text:upper():match("^(10)([SCDH])$")
    if not rank then
        rank, suit = text:upper():match("^([9JQKA])([SCDH])$")
    end
    if not rank or not RANK_OK[rank] then
        error("not a card: " .. text, 0)
    end
    return card_module.new(SUIT_OF[suit], rank)
end

local function card_text(c)
    return c.rank .. LETTER_OF[c.suit]
end

local function key_of(c)
    return c.suit .. ":" .. c.rank
end

-- Protocol seats are 0-based clockwise; the engine's are 1-based and clockwise too
-- (app/session.lua: "(seat % count) + 1 for clockwise").
local function eng(seat)
    return seat + 1
end

local function proto(seat)
    return seat - 1
end

-- The game ------------------------------------------------------------------------------------
local G = {}

local function need_game()
    if not G.dealer then
        error("no game started", 0)
    end
end

local function session()
    if not G.s then
        error("no deal yet", 0)
    end
    return G.s
end

-- Where the engine's dealer puts each deck position, for this configuration and dealer: deal the
-- unshuffled deck once and see where every card lands.
local function deal_slots(dealer)
    local built = deck_module.build()
    local index = {}
    for i, c in ipairs(built) do
        index[key_of(c)] = i
    end
    local r = dealing.deal(built, CONFIG, { dealer = dealer })
    if not r.ok then
        error("the engine cannot deal this configuration: " .. tostring(r.error.message), 0)
    end
    local function positions(list)
        local out = {}
        for _, c in ipairs(list or {}) do
            out[#out + 1] = index[key_of(c)]
        end
        return out
    end
    local hands = {}
    for seat = 1, N do
        hands[seat] = positions(r.hands[seat])
    end
    return { hands = hands, talon = positions(r.talon), stock = positions(r.stock),
        leftover = positions(r.leftover_for_declarer) }
end

-- The protocol's deal as the deck the engine's dealer turns into those hands.
local function build_deck(msg, dealer)
    local slots = deal_slots(dealer)
    local deck = {}
    local function put(where, cards, what)
        if #where ~= #cards then
            error(string.format("%s: the engine deals %d card(s) here, the harness gave %d", what, #where,
                #cards), 0)
        end
        for i, pos in ipairs(where) do
            deck[pos] = to_card(cards[i])
        end
    end
    local hands = msg.hands
    if type(hands) ~= "table" or #hands ~= N then
        error("deal: hands must list " .. N .. " hands", 0)
    end
    for seat = 1, N do
        put(slots.hands[seat], hands[seat], "deal: hand of seat " .. proto(seat))
    end
    -- The protocol has one talon; the engine's Polish layout splits it into a 2-card talon and a
    -- 1-card leftover for the declarer (core/dealing.lua, talon size 2): the talon's last card is
    -- the leftover. The two-player stock (two_player_a, no talon) is the record's talon: our
    -- players-2.stock writes it as talon_cards, its first card the top of the stock and its last the
    -- face-up bottom card, in the order of the engine's stock list (core/dealing.lua:375-421).
    local talon = msg.talon_cards or {}
    if #slots.stock > 0 and #slots.talon == 0 then
        put(slots.stock, talon, "deal: stock")
        talon = {}
    end
    local main, rest = {}, {}
    for i, c in ipairs(talon) do
        if i <= #slots.talon then
            main[#main + 1] = c
        else
            rest[#rest + 1] = c
        end
    end
    put(slots.talon, main, "deal: talon")
    local dealt = #slots.talon + #slots.stock + #slots.leftover
    for seat = 1, N do
        dealt = dealt + #slots.hands[seat]
    end
    if #slots.leftover > 0 then
        put(slots.leftover, rest, "deal: talon (the declarer's leftover card)")
    elseif #rest > 0 and #rest ~= 24 - dealt then
        error("deal: the engine's talon holds " .. #slots.talon .. " card(s), the harness gave " .. #talon, 0)
    end
    -- Otherwise the talon's last cards are a hand nobody plays (our players-2.dead-hand writes the dead
    -- hand after the talon): the engine leaves them in the deck, which the loop below fills.
    -- Cards the engine's dealer leaves in the deck (the dead hand of the two-player layout B) are the
    -- cards the harness dealt nowhere the engine deals: they go to the unused positions, in order.
    local placed = {}
    for i = 1, 24 do
        if deck[i] then
            placed[key_of(deck[i])] = true
        end
    end
    local spare = {}
    for _, c in ipairs(deck_module.build()) do
        if not placed[key_of(c)] then
            spare[#spare + 1] = c
        end
    end
    local used = {}
    for _, list in ipairs({ slots.talon, slots.stock, slots.leftover }) do
        for _, pos in ipairs(list) do
            used[pos] = true
        end
    end
    for seat = 1, N do
        for _, pos in ipairs(slots.hands[seat]) do
            used[pos] = true
        end
    end
    for i = 1, 24 do
        if not used[i] and deck[i] == nil then
            deck[i] = table.remove(spare, 1)
        end
    end
    local seen = {}
    for i = 1, 24 do
        if deck[i] == nil then
            error("deal: the harness's cards do not fill the engine's 24-card deck", 0)
        end
        if seen[key_of(deck[i])] then
            error("deal: card " .. card_text(deck[i]) .. " given twice", 0)
        end
        seen[key_of(deck[i])] = true
    end
    return deck
end

local function copy(list)
    local out = {}
    for i, v in ipairs(list) do
        out[i] = v
    end
    return out
end

-- One line of the score sheet, built when a deal ends.
local function sheet_row(s, before)
    local row = json.object()
    local totals = s:running_totals()
    local delta = json.array()
    local scoring = s._scoring ~= before.scoring and s._scoring or nil
    for seat = 1, N do
        delta[seat] = totals[seat] - before.totals[seat]
    end
    row.delta = delta
    row.score = json.array(copy(totals))
    row.bolts = json.array(copy(s:zero_tricks_bolts()))
    row.barrel_falls = json.array(copy(s:barrel_fall_counts()))
    local on = json.array()
    for seat, entry in ipairs(s:barrel_state()) do
        on[seat] = entry.on_barrel and true or false
    end
    row.on_barrel = on
    local done = s._deal_done
    if done and done.reason == "all_pass" then
        row.declarer = json.null
    elseif before.declarer then
        row.declarer = proto(before.declarer)
        row.contract = before.contract
    end
    row.conceded = (done ~= nil and done.reason == "write_off") or (before.conceded == true)
    local t = s._tricks
    if t and scoring and not row.conceded then
        row.tricks_won = json.array(copy(t.tricks_won))
        local taken, marr = json.array(), json.array()
        local bonuses = (s._marriages and s._marriages.bonuses) or {}
        for seat = 1, N do
            marr[seat] = bonuses[seat] or 0
            taken[seat] = (t.captured_points[seat] or 0) + marr[seat]
        end
        row.taken_points = taken
        row.marriage_points = marr
    end
    return row
end

-- Legal actions ----------------------------------------------------------------------------
local function action(seat, name, fields)
    local a = json.object({ seat = proto(seat), action = name })
    for k, v in pairs(fields or {}) do
        a[k] = v
    end
    return a
end

-- Numbers the protocol may offer as bids or announcements: the engine validates each.
local MAX_LISTED = 400

local function auction_actions(s, out)
    local a = s._auction
    local turn = a and a.turn
    if not turn or a.status ~= "in_progress" then
        return
    end
    if auction_module.pass(a, turn).ok then
        out[#out + 1] = action(turn, "pass")
    end
    for v = 5, MAX_LISTED, 5 do
        if auction_module.bid(a, turn, v).ok then
            out[#out + 1] = action(turn, "bid", { value = v })
        end
    end
end

local function talon_actions(s, out, phase)
    local t = s._talon
    local decl = t.declarer
    local sub = s:talon_substate()
    if sub == "action" and phase == "talon" then
        if talon_module.take(t).ok then
            -- With two players (two_player_b) our records deal the talon as the one stack to take
            -- (players-2.talon-choice, talon_stacks 1): its number is 0.
            out[#out + 1] = action(decl, "take-talon", N == 2 and { stack = 0 } or nil)
        end
    elseif sub == "pass" then
        for _, target in ipairs(s:talon_pass_targets() or {}) do
            for _, c in ipairs(t.hands[decl]) do
                if talon_module.pass(t, target, c).ok then
                    out[#out + 1] = action(decl, "give", { card = card_text(c), to = proto(target) })
                end
            end
        end
    elseif sub == "raise" then
        out[#out + 1] = action(decl, "announce", { value = t.final_bid })
        for v = 5, MAX_LISTED, 5 do
            if talon_module.raise(t, v).ok then
                out[#out + 1] = action(decl, "announce", { value = v })
            end
        end
    elseif sub == "polish_pass" then
        for _, target in ipairs(s:talon_pass_targets() or {}) do
            for i, c in ipairs(t.talon) do
                if talon_module.pass_from_talon(t, target, i).ok then
                    out[#out + 1] = action(decl, "give", { card = card_text(c), to = proto(target) })
                end
            end
        end
    elseif sub == "discard" then
        for _, c in ipairs(t.hands[decl]) do
            if talon_module.discard(t, c).ok then
                out[#out + 1] = action(decl, "discard", { card = card_text(c) })
            end
        end
    end
    if phase == "awaiting_write_off_decision" then
        out[#out + 1] = action(decl, "concede")
    end
end

local function tricks_actions(s, out)
    local t = s._tricks
    local p = t.next_to_play
    if not p then
        return
    end
    local leading = #t.current_trick.plays == 0
    local marriage_suits = {}
    if leading then
        for _, suit in ipairs(s:available_marriages(p)) do
            local won = (t.tricks_won and t.tricks_won[p]) or 0
            if marriages_module.declare(s._marriages, p, suit, t.hands[p], won).ok then
                marriage_suits[suit] = true
            end
        end
    end
    for _, c in ipairs(s:legal_cards(p)) do
        out[#out + 1] = action(p, "play", { card = card_text(c), marriage = false })
        if marriage_suits[c.suit] and (c.rank == "K" or c.rank == "Q") then
            out[#out + 1] = action(p, "play", { card = card_text(c), marriage = true })
        end
    end
end

local function legal()
    local out = json.array()
    if not G.s then
        return out
    end
    local s = G.s
    local phase = s:current_phase()
    if phase == "auction" then
        auction_actions(s, out)
    elseif phase == "talon" or phase == "awaiting_write_off_decision" then
        talon_actions(s, out, phase)
    elseif phase == "tricks" then
        tricks_actions(s, out)
    end
    return out
end

-- Applying an action -----------------------------------------------------------------------
local function same(a, b)
    if a.action ~= b.action or a.seat ~= b.seat then
        return false
    end
    for _, k in ipairs({ "value", "card", "to", "marriage" }) do
        local x, y = a[k], b[k]
        if type(x) == "string" then
            x = x:upper()
        end
        if type(y) == "string" then
            y = y:upper()
        end
        if x ~= y then
            return false
        end
    end
    return true
end

local function reason_of(r)
    return (r.error and r.error.code) or "rejected"
end

local function do_apply(s, a)
    local seat = a.seat
    if type(seat) ~= "number" or seat < 0 or seat >= N or seat ~= math.floor(seat) then
        return false, "bad-seat"
    end
    local p = eng(seat)
    local name = a.action
    local turn = s:current_turn()
    local r
    if name == "bid" then
        if type(a.value) ~= "number" then
            return false, "bad-payload"
        end
        r = s:bid(p, a.value)
    elseif name == "pass" then
        r = s:pass(p)
    elseif name == "take-talon" or name == "give" or name == "announce" or name == "concede" or name == "discard" then
        if not s._talon or p ~= s._talon.declarer or (turn ~= nil and p ~= turn) then
            return false, "not_your_turn"
        end
        if name == "take-talon" then
            if s:current_phase() ~= "talon" then
                return false, "wrong_phase"
            end
            if N == 2 and a.stack ~= 0 then
                return false, "no_such_stack"
            end
            r = s:take_talon()
        elseif name == "give" then
            local ok, c = pcall(to_card, a.card)
            if not ok or type(a.to) ~= "number" then
                return false, "bad-payload"
            end
            local check
            if s:talon_substate() == "polish_pass" then
                local idx
                for i, tc in ipairs(s._talon.talon) do
                    if key_of(tc) == key_of(c) then
                        idx = i
                    end
                end
                if not idx then
                    return false, "card_not_in_talon"
                end
                -- Session mutators clear a pending write-off offer before they validate: validate first.
                check = talon_module.pass_from_talon(s._talon, eng(a.to), idx)
                r = check.ok and s:pass_polish_talon(eng(a.to), idx) or check
            else
                check = talon_module.pass(s._talon, eng(a.to), c)
                r = check.ok and s:pass_talon(eng(a.to), c) or check
            end
        elseif name == "announce" then
            if type(a.value) ~= "number" then
                return false, "bad-payload"
            end
            if s:talon_substate() == "raise" and a.value == s._talon.final_bid then
                r = s:skip_raise()
            else
                local check = talon_module.raise(s._talon, a.value)
                r = check.ok and s:raise(a.value) or check
            end
        elseif name == "discard" then
            local ok, c = pcall(to_card, a.card)
            if not ok then
                return false, "bad-payload"
            end
            local check = talon_module.discard(s._talon, c)
            r = check.ok and s:discard_talon(c) or check
        else
            r = s:write_off()
        end
    elseif name == "play" then
        local ok, c = pcall(to_card, a.card)
        if not ok then
            return false, "bad-payload"
        end
        if a.marriage == true then
            -- A marriage is the engine's declare_marriage followed by the lead: check the lead first,
            -- so that a refused play leaves no declaration behind.
            local legal_card = false
            for _, lc in ipairs(s:legal_cards(p)) do
                if key_of(lc) == key_of(c) then
                    legal_card = true
                end
            end
            if not legal_card then
                return false, "illegal_card"
            end
            if c.rank ~= "K" and c.rank ~= "Q" then
                return false, "not_a_marriage_card"
            end
            r = s:declare_marriage(p, c.suit)
            if not r.ok then
                return false, reason_of(r)
            end
        end
        if not as_is and CONFIG.talon.size == 0 and not s._talon and s._auction
                and s._auction.status ~= "in_progress" then
            -- Bug 4: with no talon (four_player_a, two_player_a) the session scores a deal from a talon record
            -- it never makes (app/session.lua:1783-1784 reads self._talon, which :1599-1605 leaves nil) and fails
            -- at the deal's last card. The driver gives it that record from the auction (its declarer and
            -- final bid, what the talon would have carried), so that the deal is scored and compared.
            s._talon = { declarer = s._auction.declarer, final_bid = s._auction.final_bid, status = "done" }
        end
        r = s:play(p, c)
    else
        return false, "unknown-action"
    end
    if r.ok then
        return true
    end
    return false, reason_of(r)
end

local function apply(a)
    local s = session()
    if type(a) ~= "table" then
        return false, "bad-payload"
    end
    local before = {
        totals = copy(s:running_totals()),
        scoring = s._scoring,
        declarer = s._talon and s._talon.declarer or nil,
        contract = s._talon and (s._talon.final_bid or s._talon.original_bid) or nil,
        finished = s._deal_done ~= nil or s._winner ~= nil,
    }
    local ok, reason = do_apply(s, a)
    if not ok then
        return false, reason
    end
    if a.action == "concede" then
        before.conceded = true
    end
    if not before.finished and (s._deal_done ~= nil or s._winner ~= nil) then
        G.rows[#G.rows + 1] = sheet_row(s, before)
    end
    return true
end

-- Requests -------------------------------------------------------------------------------------
local CAPABILITIES = json.object({
    explicit_deal = true,
    legal_actions = true,
    results = true,
    set_state = true,
    players = json.array({ N }),
    library = "mekedron/thousand d52da93886f3fd57ad73ef9b49c2f5de4f2e266c, configuration " .. config_name,
    projection = json.object({
        deal = "the engine shuffles its own deck; the driver replaces core.deck's shuffle with one that returns "
            .. "the deck the engine's dealer (core/dealing.lua) turns into the requested hands and talon; in "
            .. "two_player_a the talon is the engine's stock, its first card on top and its last the face-up trump card",
        seats = "protocol seat s is the engine's seat s + 1; both count clockwise",
        ["take-talon"] = "Session:take_talon(); with two players the talon is stack 0, the one stack our records deal",
        give = "Session:pass_talon(to, card); in the Polish 2-card layout Session:pass_polish_talon(to, index) "
            .. "with the talon card named",
        announce = "value = contract: Session:skip_raise(); a higher value: Session:raise(value); raises are "
            .. "listed up to " .. MAX_LISTED .. " though the engine sets no maximum",
        concede = "Session:write_off() (bidding.write_off), offered from taking the talon until the first card is given",
        play = "marriage = true: Session:declare_marriage(seat, suit) and then Session:play(seat, card); with no "
            .. "talon (four_player_a, two_player_a) the session is first given the talon record it scores from "
            .. "and never makes (the auction's declarer and final bid)",
        set_state = "score, bolts, barrel_falls, rospis_count and no_win become the engine's running totals, "
            .. "zero-trick, barrel-fall, write-off and no-win-streak counters; a score on the barrel is refused (the engine keeps a barrel entry "
            .. "per player that a score alone does not give)",
        results = "delta is the change of the running total over the deal (after the barrel and the ±555 "
            .. "reset, as the oracle's sheet writes it); score the running totals; bolts the zero-trick "
            .. "counters; tricks_won and taken_points the trick-play tallies",
    }),
    not_supported = json.array({ "expose-card", "shuffle", "cut", "recut", "accept-cut", "bury-jack",
        "scores on the barrel in set_state" }),
})

local handlers = {}

function handlers.hello(msg)
    if msg.protocol ~= PROTOCOL then
        error("this driver speaks " .. PROTOCOL .. ", not " .. tostring(msg.protocol), 0)
    end
    return { protocol = PROTOCOL, engine = "mekedron/thousand " .. config_name, capabilities = CAPABILITIES }
end

function handlers.new_game(msg)
    local players = msg.players
    if type(players) ~= "table" or #players ~= N then
        error("configuration " .. config_name .. " plays with " .. N .. " players, not " ..
            tostring(type(players) == "table" and #players or players), 0)
    end
    local d = msg.dealer
    if type(d) ~= "number" or d < 0 or d >= N or d ~= math.floor(d) then
        error("bad dealer " .. tostring(d), 0)
    end
    G = { dealer = eng(d), rows = {}, s = nil, state = nil }
    return {}
end

function handlers.set_state(msg)
    need_game()
    if G.s then
        error("set_state only before the first deal", 0)
    end
    local st = msg.state
    if type(st) ~= "table" then
        error("set_state: state must be an object", 0)
    end
    for k, v in pairs(st) do
        if k ~= "score" and k ~= "bolts" and k ~= "barrel_falls" and k ~= "rospis_count" and k ~= "no_win" then
            error("set_state: the engine keeps no " .. k, 0)
        end
        if type(v) ~= "table" or #v ~= N then
            error("set_state: " .. k .. " needs one value per seat", 0)
        end
        for i = 1, N do
            if type(v[i]) ~= "number" then
                error("set_state: " .. k .. " values must be numbers", 0)
            end
        end
    end
    if st.score then
        for i = 1, N do
            if st.score[i] >= CONFIG.barrel.threshold and st.score[i] < CONFIG.endgame.target_score then
                error("set_state: a score on the barrel (" .. st.score[i] .. ") is not supported", 0)
            end
        end
    end
    G.state = st
    return {}
end

function handlers.deal(msg)
    need_game()
    if not G.s then
        pending_deck = build_deck(msg, G.dealer)
        G.s = session_module.new({ config = CONFIG, dealer = G.dealer, seed = 1 })
        local st = G.state
        if st then
            -- The engine starts a game at zero (app/session.lua M.new); a game from given values sets the
            -- same per-seat fields its saved games restore (M.from_state).
            if st.score then
                G.s._running_totals = copy(st.score)
                if G.s._auction then
                    G.s._auction.running_totals = G.s._running_totals
                end
            end
            if st.bolts then
                G.s._zero_tricks_bolts = copy(st.bolts)
            end
            if st.barrel_falls then
                G.s._barrel_fall_counts = copy(st.barrel_falls)
            end
            if st.rospis_count then
                G.s._write_off_counts = copy(st.rospis_count)
            end
            if st.no_win then
                G.s._no_win_streak_counts = copy(st.no_win)
            end
        end
        return {}
    end
    local s = G.s
    if s._winner then
        error("the game is over", 0)
    end
    if not s._deal_done then
        error("a deal is still in progress (phase " .. s:current_phase() .. ")", 0)
    end
    -- The next dealer is the engine's choice (start_next_deal); the deck is dealt for that dealer.
    local prev = s._deal_done.reason
    local next_dealer = prev == "all_pass" and s._dealer or (s._dealer % N) + 1
    pending_deck = build_deck(msg, next_dealer)
    local r = s:start_next_deal()
    if not r.ok then
        error("start_next_deal: " .. reason_of(r), 0)
    end
    if s._dealer ~= next_dealer then
        error("the engine chose dealer " .. proto(s._dealer) .. ", the driver dealt for " .. proto(next_dealer), 0)
    end
    return {}
end

function handlers.legal()
    need_game()
    return { actions = legal() }
end

function handlers.apply(msg)
    need_game()
    local ok, reason = apply(msg.action)
    if ok then
        return { accepted = true }
    end
    return { accepted = false, reason = reason }
end

function handlers.results()
    need_game()
    return { deals = json.array(copy(G.rows)) }
end

function handlers.quit()
    return {}
end

-- The loop ----------------------------------------------------------------------------------
local function reply(t)
    io.stdout:write(json.encode(t), "\n")
    io.stdout:flush()
end

for line in io.lines() do
    if line:match("%S") then
        local okd, msg = pcall(json.decode, line)
        if not okd or type(msg) ~= "table" then
            reply(json.object({ id = json.null, error = "request is not a JSON object: " .. tostring(msg) }))
        else
            local h = handlers[msg.cmd]
            local out
            if not h then
                out = json.object({ error = "unknown command " .. tostring(msg.cmd) })
            else
                local ok, res = pcall(h, msg)
                if ok then
                    out = json.object(res)
                    out.ok = true
                else
                    out = json.object({ error = tostring(res) })
                end
            end
            out.id = msg.id
            reply(out)
            if msg.cmd == "quit" then
                break
            end
        end
    end
end

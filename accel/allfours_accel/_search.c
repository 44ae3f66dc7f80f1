/*
 * The double-dummy search of allfours_notation.checking.analysis.solver, compiled.
 *
 * This file knows no rule of All Fours.  Which cards may be played, who wins a trick
 * and what Game is worth for a split of the pips are asked of Python (callbacks that
 * ask the referee and the scorer) the first time each question comes up, and the
 * answers are kept in tables here.  What the Jack and Low are worth to each seat comes
 * in as numbers.  What this file adds is only the search: alpha-beta (fail-soft) with
 * null-window tests (MTD(f)), a transposition table at trick boundaries keyed by the
 * cards still out in canonical form, equivalent cards searched once, the last trick
 * played out, and the bounds on what the open items can still be worth -- the same
 * value, by the same definition, as the pure-Python solver, which stays the reference
 * (a differential test holds the two to identical values).
 *
 * Cards are numbered as the Python solver numbers them (by suit, then rank), so that a
 * bit mask of cards is a hand, and each card has one holder (a trick's seats are its
 * cards' holders).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_CARDS 64
#define MAX_SEATS 4
#define MAX_SUITS 8
#define INF 30000
#define CLOCK_EVERY 16383
#define WIN_FORMS_MASK ((1ULL << 16) - 1)

typedef struct {
    uint64_t shape;  /* the cards still out, canonical */
    uint16_t rest;   /* the leader and the pips state */
    int16_t lower, upper;
    int8_t move;
    uint8_t depth;   /* cards still out: the entry kept on a clash is the deeper one */
} TTEntry;

typedef struct {
    uint64_t hand;   /* 0: empty slot (no hand asked about is empty) */
    uint32_t trick;
    uint64_t legal;
} LegalEntry;

/* A question of legal cards in canonical form (see ``legal_form``) and its answer: which
 * of the hand's cards, counted in card order, may be played. */
typedef struct {
    uint64_t form[4];  /* form[0] == 0: empty slot */
    uint64_t legal;
} FormEntry;

typedef struct {
    uint32_t trick;  /* 0: empty slot */
    int8_t winner;
} WinnerEntry;

typedef struct {
    uint64_t remaining;
    uint32_t trick;
    int8_t move;
} HintEntry;

typedef struct {
    PyObject_HEAD
    int n, ncards, nsides, total;
    int owner[MAX_CARDS], pips[MAX_CARDS], suit_of[MAX_CARDS];
    int lead_key[MAX_CARDS], cheap_key[MAX_CARDS];
    uint64_t counting;
    uint64_t named;  /* the cards a rule of play may name (the Jack, Low): kept by name */
    int jack, low;
    int jack_value[MAX_SEATS], low_value[MAX_SEATS];
    int jack_lo, jack_hi, low_lo, low_hi;
    int next_pos[MAX_SEATS], side_of[MAX_SEATS], maximises[MAX_SEATS];
    int nsuits, suit_start[MAX_SUITS], suit_len[MAX_SUITS];
    uint16_t *suit_id[MAX_SUITS];
    PyObject *legal_cb, *winner_cb, *game_cb, *timeout_type;
    PyObject *clock;
    double deadline;
    int has_deadline;
    int *game;        /* game value per final split; INT32_MIN: not asked yet */
    int *bound_lo, *bound_hi;  /* Game's range from a pips state; INT32_MIN: not yet */
    int clip;
    TTEntry *tt;
    uint64_t tt_mask;
    LegalEntry *legal;
    uint64_t legal_mask, legal_used;
    FormEntry *forms;
    uint64_t form_mask, form_used;
    WinnerEntry *win;
    uint64_t win_mask, win_used;
    uint64_t *win_forms;  /* a trick in canonical form (0: empty) ... */
    int8_t *win_form_answer;  /* ... and which of its plays wins */
    uint64_t win_form_used;
    HintEntry *hints;
    uint64_t hint_mask;
    int killer[MAX_CARDS + 1][MAX_SEATS];
    /* the position */
    uint64_t hands[MAX_SEATS];
    uint64_t remaining;
    int trick_pos[MAX_SEATS], trick_card[MAX_SEATS], ntrick;
    int leader;
    int pv[3];
    int rest;
    /* what it has done */
    long long nodes, table_hits, settled;
    int err;
} Engine;

/* --- small helpers ------------------------------------------------------------------- */

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline int lowest(uint64_t m) { return __builtin_ctzll(m); }

static uint32_t trick_code(const Engine *e, int extra) {
    /* the cards on the table (and ``extra`` when >= 0) as one number, 7 bits a card */
    uint32_t code = 0;
    for (int k = 0; k < e->ntrick; k++) code = code << 7 | (uint32_t)(e->trick_card[k] + 1);
    if (extra >= 0) code = code << 7 | (uint32_t)(extra + 1);
    return code;
}

static int fail(Engine *e) {
    e->err = 1;
    return 0;
}

/* the cards on the table (and ``extra`` when >= 0), as Python is asked about them: their
 * numbers (each card's holder is known to both sides) */
static PyObject *trick_tuple(const Engine *e, int extra) {
    int len = e->ntrick + (extra >= 0);
    PyObject *t = PyTuple_New(len);
    if (!t) return NULL;
    for (int k = 0; k < len; k++) {
        PyObject *card = PyLong_FromLong(k < e->ntrick ? e->trick_card[k] : extra);
        if (!card) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, card);
    }
    return t;
}

/* --- what the referee says, asked once ------------------------------------------------ */

static int grow_legal(Engine *e) {
    uint64_t size = (e->legal_mask + 1) * 2;
    if (size > (1ULL << 21)) {  /* memory stays bounded: start the table again */
        memset(e->legal, 0, (e->legal_mask + 1) * sizeof(LegalEntry));
        e->legal_used = 0;
        return 1;
    }
    LegalEntry *fresh = PyMem_Calloc(size, sizeof(LegalEntry));
    if (!fresh) {
        PyErr_NoMemory();
        return 0;
    }
    for (uint64_t i = 0; i <= e->legal_mask; i++) {
        LegalEntry *old = &e->legal[i];
        if (!old->hand) continue;
        uint64_t j = mix(old->hand ^ ((uint64_t)old->trick << 40)) & (size - 1);
        while (fresh[j].hand) j = (j + 1) & (size - 1);
        fresh[j] = *old;
    }
    PyMem_Free(e->legal);
    e->legal = fresh;
    e->legal_mask = size - 1;
    return 1;
}

/* The question "which of ``hand`` may ``pos`` play to the trick on the table" in the form
 * that the Python solver's own canonical key rests on: the referee's legal_cards sees
 * only the hand and the trick, and its rules see suits and the order of rank among the
 * cards shown (they compare ranks and name none but the Jack and Low).  So the form is
 * the seat asking, the seat that led, and per suit in rank order each card of the hand or
 * the trick as "held" or "played n-th", with its name if it is one a rule may name.  Returns 0 when the form does not fit (then only the exact question is kept). */
static int legal_form(const Engine *e, int pos, uint64_t hand, uint64_t *form) {
    uint8_t bytes[32];
    int len = 0;
    memset(bytes, 0, sizeof bytes);
    bytes[len++] = (uint8_t)(1 + pos);
    bytes[len++] = (uint8_t)(1 + (e->ntrick ? e->trick_pos[0] : pos));
    uint64_t shown = hand;
    for (int t = 0; t < e->ntrick; t++) shown |= 1ULL << e->trick_card[t];
    for (int s = 0; s < e->nsuits; s++) {
        int start = e->suit_start[s];
        uint64_t part = shown >> start & ((1ULL << e->suit_len[s]) - 1);
        for (; part; part &= part - 1) {
            int k = lowest(part), i = start + k, role = 1;
            if (!(hand >> i & 1)) {
                for (int t = 0; t < e->ntrick; t++)
                    if (e->trick_card[t] == i) role = 2 + t;
            }
            if (len == (int)sizeof bytes) return 0;
            bytes[len++] = (uint8_t)(role | (e->named >> i & 1 ? (k + 1) << 3 : 0));
        }
        if (len == (int)sizeof bytes) return 0;
        bytes[len++] = 0x80;  /* the end of a suit */
    }
    memcpy(form, bytes, sizeof bytes);
    return 1;
}

static uint64_t form_hash(const uint64_t *form) {
    return mix(form[0] ^ mix(form[1] ^ mix(form[2] ^ mix(form[3]))));
}

static int grow_forms(Engine *e) {
    uint64_t size = (e->form_mask + 1) * 2;
    if (size > (1ULL << 20)) {  /* memory stays bounded: start the table again */
        memset(e->forms, 0, (e->form_mask + 1) * sizeof(FormEntry));
        e->form_used = 0;
        return 1;
    }
    FormEntry *fresh = PyMem_Calloc(size, sizeof(FormEntry));
    if (!fresh) {
        PyErr_NoMemory();
        return 0;
    }
    for (uint64_t i = 0; i <= e->form_mask; i++) {
        FormEntry *old = &e->forms[i];
        if (!old->form[0]) continue;
        uint64_t j = form_hash(old->form) & (size - 1);
        while (fresh[j].form[0]) j = (j + 1) & (size - 1);
        fresh[j] = *old;
    }
    PyMem_Free(e->forms);
    e->forms = fresh;
    e->form_mask = size - 1;
    return 1;
}

/* the cards of ``hand`` picked by ``ranks`` (bit j: the j-th card of the hand in card
 * order), and back */
static uint64_t from_ranks(uint64_t hand, uint64_t ranks) {
    uint64_t out = 0;
    for (int j = 0; hand; hand &= hand - 1, j++)
        if (ranks >> j & 1) out |= hand & -hand;
    return out;
}

static uint64_t to_ranks(uint64_t hand, uint64_t cards) {
    uint64_t out = 0;
    for (int j = 0; hand; hand &= hand - 1, j++)
        if (cards & hand & -hand) out |= 1ULL << j;
    return out;
}

static uint64_t ask_legal(Engine *e, int pos, uint64_t hand) {
    uint64_t form[4];
    int has_form = legal_form(e, pos, hand, form);
    uint64_t j = 0;
    if (has_form) {
        j = form_hash(form) & e->form_mask;
        for (;;) {
            FormEntry *slot = &e->forms[j];
            if (!slot->form[0]) break;
            if (!memcmp(slot->form, form, sizeof form)) return from_ranks(hand, slot->legal);
            j = (j + 1) & e->form_mask;
        }
    }
    PyObject *trick = trick_tuple(e, -1);
    if (!trick) return fail(e);
    PyObject *hand_obj = PyLong_FromUnsignedLongLong(hand);
    if (!hand_obj) {
        Py_DECREF(trick);
        return fail(e);
    }
    PyObject *answer = PyObject_CallFunction(e->legal_cb, "iOO", pos, hand_obj, trick);
    Py_DECREF(hand_obj);
    Py_DECREF(trick);
    if (!answer) return fail(e);
    uint64_t legal = PyLong_AsUnsignedLongLong(answer);
    Py_DECREF(answer);
    if (PyErr_Occurred()) return fail(e);
    if (!legal || (legal & ~hand)) {
        PyErr_SetString(PyExc_ValueError, "the legal cards must be some of the hand's");
        return fail(e);
    }
    if (has_form) {
        if ((e->form_used + 1) * 2 > e->form_mask + 1) {
            if (!grow_forms(e)) return fail(e);
            j = form_hash(form) & e->form_mask;
            while (e->forms[j].form[0]) j = (j + 1) & e->form_mask;
        }
        memcpy(e->forms[j].form, form, sizeof form);
        e->forms[j].legal = to_ranks(hand, legal);
        e->form_used++;
    }
    return legal;
}

static uint64_t legal_moves(Engine *e, int pos, uint64_t hand) {
    /* a seat's only card is a legal one, whatever the follow rule (the Python solver
     * plays the last trick out on the same ground) */
    if (!(hand & (hand - 1))) return hand;
    uint32_t code = trick_code(e, -1);
    uint64_t j = mix(hand ^ ((uint64_t)code << 40)) & e->legal_mask;
    for (;;) {
        LegalEntry *slot = &e->legal[j];
        if (!slot->hand) break;
        if (slot->hand == hand && slot->trick == code) return slot->legal;
        j = (j + 1) & e->legal_mask;
    }
    uint64_t legal = ask_legal(e, pos, hand);
    if (e->err) return 0;
    if ((e->legal_used + 1) * 2 > e->legal_mask + 1) {
        if (!grow_legal(e)) return fail(e);
        j = mix(hand ^ ((uint64_t)code << 40)) & e->legal_mask;
        while (e->legal[j].hand) j = (j + 1) & e->legal_mask;
    }
    e->legal[j].hand = hand;
    e->legal[j].trick = code;
    e->legal[j].legal = legal;
    e->legal_used++;
    return legal;
}

static int grow_winners(Engine *e) {
    uint64_t size = (e->win_mask + 1) * 2;
    if (size > (1ULL << 20)) {
        memset(e->win, 0, (e->win_mask + 1) * sizeof(WinnerEntry));
        e->win_used = 0;
        return 1;
    }
    WinnerEntry *fresh = PyMem_Calloc(size, sizeof(WinnerEntry));
    if (!fresh) {
        PyErr_NoMemory();
        return 0;
    }
    for (uint64_t i = 0; i <= e->win_mask; i++) {
        if (!e->win[i].trick) continue;
        uint64_t j = mix(e->win[i].trick) & (size - 1);
        while (fresh[j].trick) j = (j + 1) & (size - 1);
        fresh[j] = e->win[i];
    }
    PyMem_Free(e->win);
    e->win = fresh;
    e->win_mask = size - 1;
    return 1;
}

static int remember_winner(Engine *e, uint32_t code, int w) {
    if ((e->win_used + 1) * 2 > e->win_mask + 1) {
        if (!grow_winners(e)) return fail(e);
    }
    uint64_t j = mix(code) & e->win_mask;
    while (e->win[j].trick) j = (j + 1) & e->win_mask;
    e->win[j].trick = code;
    e->win[j].winner = (int8_t)w;
    e->win_used++;
    return w;
}

/* who wins the trick on the table with card ``extra`` played to it (a trick
 * not yet complete: who is winning it so far) */
static int winner_of(Engine *e, int extra) {
    uint32_t code = trick_code(e, extra);
    uint64_t j = mix(code) & e->win_mask;
    for (;;) {
        WinnerEntry *slot = &e->win[j];
        if (!slot->trick) break;
        if (slot->trick == code) return slot->winner;
        j = (j + 1) & e->win_mask;
    }
    /* the trick in canonical form (the same ground as legal_form's): the seat that led,
     * and per play its suit, its order of rank among the trick's cards of that suit and
     * its name if a rule may name it */
    int cards[MAX_SEATS] = {0}, seats[MAX_SEATS] = {0}, len = e->ntrick, formed = 1;
    for (int t = 0; t < len; t++) {
        cards[t] = e->trick_card[t];
        seats[t] = e->trick_pos[t];
    }
    if (extra >= 0) {
        cards[len] = extra;
        seats[len] = len ? e->next_pos[seats[len - 1]] : e->leader;
        len++;
    }
    uint64_t form = 1ULL << 63 | (uint64_t)len | (uint64_t)seats[0] << 3;
    for (int t = 0; t < len; t++) {
        int i = cards[t], below = 0, name = 0;
        for (int u = 0; u < len; u++)
            if (e->suit_of[cards[u]] == e->suit_of[i] && cards[u] < i) below++;
        if (e->named >> i & 1) name = 1 + __builtin_popcountll(e->named & ((1ULL << i) - 1));
        if (name > 7) formed = 0;  /* more names than fit: no form */
        form |= (uint64_t)(e->suit_of[i] | below << 3 | name << 5) << (5 + 8 * t);
    }
    if (!formed) form = 0;
    uint64_t at = mix(form) & WIN_FORMS_MASK;
    if (form) {
        for (;;) {
            if (!e->win_forms[at]) break;
            if (e->win_forms[at] == form) {
                int w = seats[e->win_form_answer[at]];
                return remember_winner(e, code, w);
            }
            at = (at + 1) & WIN_FORMS_MASK;
        }
    }
    PyObject *trick = trick_tuple(e, extra);
    if (!trick) return fail(e);
    PyObject *answer = PyObject_CallOneArg(e->winner_cb, trick);
    Py_DECREF(trick);
    if (!answer) return fail(e);
    long w = PyLong_AsLong(answer);
    Py_DECREF(answer);
    if (PyErr_Occurred()) return fail(e);
    if (w < 0 || w >= e->n) {
        PyErr_SetString(PyExc_ValueError, "a trick's winner must be a seat at the table");
        return fail(e);
    }
    if (form) {
        int t = 0;
        while (t < len && seats[t] != w) t++;
        if (t < len) {
            if ((e->win_form_used + 1) * 2 > WIN_FORMS_MASK + 1) {  /* start again */
                memset(e->win_forms, 0, (WIN_FORMS_MASK + 1) * sizeof(uint64_t));
                e->win_form_used = 0;
                at = mix(form) & WIN_FORMS_MASK;
            }
            e->win_forms[at] = form;
            e->win_form_answer[at] = (int8_t)t;
            e->win_form_used++;
        }
    }
    return remember_winner(e, code, (int)w);
}

static int game_index(const Engine *e, const int *pv) {
    return e->nsides == 2 ? pv[0] : pv[0] * (e->total + 1) + pv[1];
}

/* Game's value for the final pips ``pv`` (per side) */
static int game_value(Engine *e, const int *pv) {
    int at = game_index(e, pv);
    if (e->game[at] != INT32_MIN) return e->game[at];
    PyObject *pips = PyTuple_New(e->nsides);
    if (!pips) return fail(e);
    for (int s = 0; s < e->nsides; s++) {
        PyObject *v = PyLong_FromLong(pv[s]);
        if (!v) {
            Py_DECREF(pips);
            return fail(e);
        }
        PyTuple_SET_ITEM(pips, s, v);
    }
    PyObject *answer = PyObject_CallOneArg(e->game_cb, pips);
    Py_DECREF(pips);
    if (!answer) return fail(e);
    long v = PyLong_AsLong(answer);
    Py_DECREF(answer);
    if (PyErr_Occurred()) return fail(e);
    if (v <= -INF / 4 || v >= INF / 4) {
        PyErr_SetString(PyExc_ValueError, "Game's value is out of range");
        return fail(e);
    }
    e->game[at] = (int)v;
    return (int)v;
}

/* The least and the most Game can still be worth from the pips state now. */
static void game_bounds(Engine *e, int *lo, int *hi) {
    int t = e->total, rest = e->rest;
    int at = e->nsides == 2 ? e->pv[0] * (t + 1) + rest
                            : (e->pv[0] * (t + 1) + e->pv[1]) * (t + 1) + rest;
    if (e->bound_lo[at] != INT32_MIN) {
        *lo = e->bound_lo[at];
        *hi = e->bound_hi[at];
        return;
    }
    int low = INF, high = -INF, split[3];
    if (e->nsides == 2) {
        for (int a = e->pv[0]; a <= e->pv[0] + rest; a++) {
            split[0] = a;
            split[1] = t - a;
            int v = game_value(e, split);
            if (e->err) return;
            if (v < low) low = v;
            if (v > high) high = v;
        }
    } else {
        for (int x = 0; x <= rest; x++) {
            for (int y = 0; x + y <= rest; y++) {
                split[0] = e->pv[0] + x;
                split[1] = e->pv[1] + y;
                split[2] = e->pv[2] + rest - x - y;
                int v = game_value(e, split);
                if (e->err) return;
                if (v < low) low = v;
                if (v > high) high = v;
            }
        }
    }
    e->bound_lo[at] = *lo = low;
    e->bound_hi[at] = *hi = high;
}

/* --- the search ------------------------------------------------------------------------ */

static int check_clock(Engine *e) {
    PyObject *now = PyObject_CallNoArgs(e->clock);
    if (!now) return fail(e);
    double t = PyFloat_AsDouble(now);
    Py_DECREF(now);
    if (PyErr_Occurred()) return fail(e);
    if (t > e->deadline) {
        PyErr_SetNone(e->timeout_type);
        return fail(e);
    }
    return 1;
}

static uint64_t shape_of(const Engine *e, uint64_t remaining) {
    uint64_t out = 0;
    for (int s = 0; s < e->nsuits; s++) {
        int len = e->suit_len[s];
        uint64_t part = remaining >> e->suit_start[s] & ((1ULL << len) - 1);
        out = out << len | e->suit_id[s][part];
    }
    return out;
}

static int last_trick(Engine *e) {
    int pos = e->leader, saved = e->ntrick;
    for (int k = 0; k < e->n; k++) {
        e->trick_pos[k] = pos;
        e->trick_card[k] = 63 - __builtin_clzll(e->hands[pos]);
        pos = e->next_pos[pos];
    }
    e->ntrick = e->n - 1;
    int w = winner_of(e, e->trick_card[e->n - 1]);
    e->ntrick = saved;
    if (e->err) return 0;
    int value = 0, gain = 0;
    for (int k = 0; k < e->n; k++) {
        int c = e->trick_card[k];
        gain += e->pips[c];
        if (c == e->jack) value += e->jack_value[w];
        if (c == e->low) value += e->low_value[w];
    }
    int pv[3] = {e->pv[0], e->pv[1], e->pv[2]};
    pv[e->side_of[w]] += gain;
    return value + game_value(e, pv);
}

/* the cards to search at ``pos`` (``legal``), one of each group of equivalent cards,
 * likely best first; returns how many */
static int moves_at(Engine *e, int pos, uint64_t legal, int hint, int killer, int *moves) {
    uint64_t outside = e->remaining & ~e->hands[pos];
    for (int k = 0; k < e->ntrick; k++) outside |= 1ULL << e->trick_card[k];
    int count = 0, last = -1;
    for (uint64_t m = legal; m; m &= m - 1) {
        int i = lowest(m);
        if (last >= 0 && e->suit_of[i] == e->suit_of[last] &&
            !(e->counting >> i & 1) && !(e->counting >> last & 1)) {
            uint64_t gap = ((1ULL << i) - 1) & ~((2ULL << last) - 1);
            if (!(gap & outside)) {
                last = i;
                continue;
            }
        }
        moves[count++] = i;
        last = i;
    }
    if (count < 2) return count;
    int keys[MAX_CARDS];
    if (!e->ntrick) {
        for (int k = 0; k < count; k++) keys[k] = e->lead_key[moves[k]];
    } else {
        int now = winner_of(e, -1);
        if (e->err) return 0;
        int ours = e->side_of[now] == e->side_of[pos];
        for (int k = 0; k < count; k++) {
            int i = moves[k];
            int wins = winner_of(e, i) == pos;
            if (e->err) return 0;
            if (ours)  /* the side is winning: points thrown on first, a winner last */
                keys[k] = wins ? 1000 + e->cheap_key[i] : -e->pips[i];
            else       /* the cheapest card that wins, then the cheapest card */
                keys[k] = wins ? e->cheap_key[i] : 1000 + e->cheap_key[i];
        }
    }
    for (int k = 1; k < count; k++) {  /* insertion sort, stable */
        int m = moves[k], key = keys[k], j = k - 1;
        while (j >= 0 && keys[j] > key) {
            moves[j + 1] = moves[j];
            keys[j + 1] = keys[j];
            j--;
        }
        moves[j + 1] = m;
        keys[j + 1] = key;
    }
    int front = 0;
    if (hint >= 0) {
        for (int k = 0; k < count; k++) {
            if (moves[k] == hint) {
                memmove(moves + 1, moves, (size_t)k * sizeof(int));
                moves[0] = hint;
                front = 1;
                break;
            }
        }
    }
    if (killer >= 0 && killer != moves[0]) {
        for (int k = front; k < count; k++) {
            if (moves[k] == killer) {
                memmove(moves + front + 1, moves + front, (size_t)(k - front) * sizeof(int));
                moves[front] = killer;
                break;
            }
        }
    }
    return count;
}

static int search(Engine *e, int alpha, int beta);

/* ``pos`` plays card ``i`` to the position, the value from there is searched in the
 * window, and the position is put back */
static int child(Engine *e, int pos, int i, int alpha, int beta) {
    uint64_t bit = 1ULL << i;
    e->hands[pos] ^= bit;
    e->remaining ^= bit;
    int v;
    if (e->ntrick + 1 == e->n) {
        int w = winner_of(e, i);
        if (e->err) {
            e->hands[pos] ^= bit;
            e->remaining ^= bit;
            return 0;
        }
        int gain = e->pips[i], value = 0;
        if (i == e->jack) value += e->jack_value[w];
        if (i == e->low) value += e->low_value[w];
        for (int k = 0; k < e->ntrick; k++) {
            int c = e->trick_card[k];
            gain += e->pips[c];
            if (c == e->jack) value += e->jack_value[w];
            if (c == e->low) value += e->low_value[w];
        }
        int side = e->side_of[w], leader = e->leader, ntrick = e->ntrick;
        int tp[MAX_SEATS], tc[MAX_SEATS];
        memcpy(tp, e->trick_pos, sizeof tp);
        memcpy(tc, e->trick_card, sizeof tc);
        e->pv[side] += gain;
        e->rest -= gain;
        e->leader = w;
        e->ntrick = 0;
        v = value + search(e, alpha - value, beta - value);
        e->pv[side] -= gain;
        e->rest += gain;
        e->leader = leader;
        e->ntrick = ntrick;
        memcpy(e->trick_pos, tp, sizeof tp);
        memcpy(e->trick_card, tc, sizeof tc);
    } else {
        e->trick_pos[e->ntrick] = pos;
        e->trick_card[e->ntrick] = i;
        e->ntrick++;
        v = search(e, alpha, beta);
        e->ntrick--;
    }
    e->hands[pos] ^= bit;
    e->remaining ^= bit;
    return v;
}

/* The transposition table's entry for the trick boundary with ``remaining`` still out,
 * the pips ``pv`` taken (``rest`` still to take) and ``leader`` to lead, or NULL; the key
 * is put in ``shape`` and ``rest_key`` */
static TTEntry *tt_find(Engine *e, uint64_t remaining, const int *pv, int rest, int leader,
                        uint64_t *shape, uint16_t *rest_key) {
    *shape = shape_of(e, remaining);
    int pipkey;
    if (e->clip) {
        int margin = pv[0] - pv[1];
        if (margin > rest) margin = rest + 1;
        else if (margin < -rest) margin = -rest - 1;
        pipkey = margin + 128;
    } else if (e->nsides == 2) {
        pipkey = pv[0];
    } else {
        pipkey = pv[0] << 7 | pv[1];
    }
    *rest_key = (uint16_t)(pipkey << 2 | leader);
    uint64_t at = mix(*shape ^ ((uint64_t)*rest_key << 48)) & e->tt_mask & ~1ULL;
    for (int k = 0; k < 2; k++) {
        TTEntry *t = &e->tt[at + (uint64_t)k];
        if (t->depth && t->shape == *shape && t->rest == *rest_key) return t;
    }
    return NULL;
}

/* Before the last card of a trick is searched: whether the table already proves that one
 * of ``moves`` cuts (an enhanced transposition cutoff); its value, or INT32_MIN */
static int table_cut(Engine *e, int pos, const int *moves, int count, int alpha, int beta) {
    if (__builtin_popcountll(e->remaining) - 1 <= e->n) return INT32_MIN;
    for (int k = 0; k < count; k++) {
        int i = moves[k];
        int w = winner_of(e, i);
        if (e->err) return INT32_MIN;
        int gain = e->pips[i], value = 0;
        if (i == e->jack) value += e->jack_value[w];
        if (i == e->low) value += e->low_value[w];
        for (int t = 0; t < e->ntrick; t++) {
            int c = e->trick_card[t];
            gain += e->pips[c];
            if (c == e->jack) value += e->jack_value[w];
            if (c == e->low) value += e->low_value[w];
        }
        int pv[3] = {e->pv[0], e->pv[1], e->pv[2]};
        pv[e->side_of[w]] += gain;
        uint64_t shape;
        uint16_t rest_key;
        TTEntry *t = tt_find(e, e->remaining ^ (1ULL << i), pv, e->rest - gain, w, &shape,
                             &rest_key);
        if (!t) continue;
        if (e->maximises[pos] ? value + t->lower >= beta : value + t->upper <= alpha) {
            e->table_hits++;
            return e->maximises[pos] ? value + t->lower : value + t->upper;
        }
    }
    return INT32_MIN;
}

static int search(Engine *e, int alpha, int beta) {
    if (e->err) return 0;
    e->nodes++;
    if (e->has_deadline && !(e->nodes & CLOCK_EVERY) && !check_clock(e)) return 0;
    uint64_t remaining = e->remaining;
    int alpha0 = alpha, beta0 = beta, pos, hint = -1;
    TTEntry *slot = NULL;
    uint64_t shape = 0;
    uint16_t rest_key = 0;
    HintEntry *hslot = NULL;
    uint32_t code = 0;
    if (!e->ntrick) {
        if (!remaining) return game_value(e, e->pv);
        if (__builtin_popcountll(remaining) == e->n) return last_trick(e);
        int low = 0, high = 0;
        game_bounds(e, &low, &high);
        if (e->err) return 0;
        if (e->jack >= 0 && (remaining >> e->jack & 1)) {
            low += e->jack_lo;
            high += e->jack_hi;
        }
        if (e->low >= 0 && (remaining >> e->low & 1)) {
            low += e->low_lo;
            high += e->low_hi;
        }
        if (low == high || high <= alpha || low >= beta) {
            e->settled++;
            return low >= beta || low == high ? low : high;
        }
        slot = tt_find(e, remaining, e->pv, e->rest, e->leader, &shape, &rest_key);
        if (slot) {
            int lower = slot->lower, upper = slot->upper;
            if (lower >= beta || lower == upper) {
                e->table_hits++;
                return lower;
            }
            if (upper <= alpha) {
                e->table_hits++;
                return upper;
            }
            if (lower > alpha) alpha = lower;
            if (upper < beta) beta = upper;
            hint = slot->move;
        }
        pos = e->leader;
    } else {
        pos = e->next_pos[e->trick_pos[e->ntrick - 1]];
        code = trick_code(e, -1);
        hslot = &e->hints[mix(remaining ^ ((uint64_t)code << 41)) & e->hint_mask];
        if (hslot->remaining == remaining && hslot->trick == code) hint = hslot->move;
    }
    uint64_t legal = legal_moves(e, pos, e->hands[pos]);
    if (e->err) return 0;
    int depth = __builtin_popcountll(remaining);
    int moves[MAX_CARDS];
    int count = moves_at(e, pos, legal, hint, e->killer[depth][e->ntrick], moves);
    if (e->err) return 0;
    if (e->ntrick == e->n - 1) {
        int cut = table_cut(e, pos, moves, count, alpha, beta);
        if (e->err) return 0;
        if (cut != INT32_MIN) return cut;
    }
    int maximise = e->maximises[pos];
    int best = maximise ? -INF : INF, best_move = -1;
    for (int k = 0; k < count; k++) {
        int i = moves[k];
        int v = child(e, pos, i, alpha, beta);
        if (e->err) return 0;
        if (maximise) {
            if (v > best) {
                best = v;
                best_move = i;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) break;
                }
            }
        } else if (v < best) {
            best = v;
            best_move = i;
            if (v < beta) {
                beta = v;
                if (alpha >= beta) break;
            }
        }
    }
    if (alpha >= beta) e->killer[depth][e->ntrick] = best_move;
    if (hslot) {
        hslot->remaining = remaining;
        hslot->trick = code;
        hslot->move = (int8_t)best_move;
    }
    if (!e->ntrick) {
        int lower = slot ? slot->lower : -INF, upper = slot ? slot->upper : INF;
        if (best <= alpha0) {
            if (best < upper) upper = best;
        } else if (best >= beta0) {
            if (best > lower) lower = best;
        } else {
            lower = upper = best;
        }
        if (!slot) {
            uint64_t at = mix(shape ^ ((uint64_t)rest_key << 48)) & e->tt_mask & ~1ULL;
            TTEntry *a = &e->tt[at], *b = &e->tt[at + 1];
            slot = !a->depth ? a : !b->depth ? b : a->depth <= b->depth ? a : b;
            slot->shape = shape;
            slot->rest = rest_key;
        }
        slot->lower = (int16_t)lower;
        slot->upper = (int16_t)upper;
        slot->move = (int8_t)best_move;
        slot->depth = (uint8_t)depth;
    }
    return best;
}

/* --- the engine as Python sees it ------------------------------------------------------- */

static int int_list(PyObject *seq, int *out, int max, int want, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > max || (want >= 0 && len != want)) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: wrong length", what);
        return -1;
    }
    for (Py_ssize_t k = 0; k < len; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[k] = (int)v;
    }
    Py_DECREF(fast);
    return (int)len;
}

static void engine_free_tables(Engine *e) {
    for (int s = 0; s < MAX_SUITS; s++) {
        PyMem_Free(e->suit_id[s]);
        e->suit_id[s] = NULL;
    }
    PyMem_Free(e->game);
    PyMem_Free(e->bound_lo);
    PyMem_Free(e->bound_hi);
    PyMem_Free(e->tt);
    PyMem_Free(e->legal);
    PyMem_Free(e->forms);
    PyMem_Free(e->win_forms);
    PyMem_Free(e->win_form_answer);
    PyMem_Free(e->win);
    PyMem_Free(e->hints);
    e->game = e->bound_lo = e->bound_hi = NULL;
    e->tt = NULL;
    e->legal = NULL;
    e->forms = NULL;
    e->win_forms = NULL;
    e->win_form_answer = NULL;
    e->win = NULL;
    e->hints = NULL;
}

static void Engine_dealloc(Engine *e) {
    engine_free_tables(e);
    Py_XDECREF(e->legal_cb);
    Py_XDECREF(e->winner_cb);
    Py_XDECREF(e->game_cb);
    Py_XDECREF(e->timeout_type);
    Py_XDECREF(e->clock);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

/* The canonical form of each set of one suit's cards still out: the same number for two
 * sets with, in rank order, the same holders and the same counting cards (the number is
 * the first set met with that form). */
static int suit_shapes(Engine *e, int s) {
    int start = e->suit_start[s], len = e->suit_len[s];
    uint64_t subsets = 1ULL << len, size = subsets * 2;
    e->suit_id[s] = PyMem_Calloc(subsets, sizeof(uint16_t));
    uint64_t *codes = PyMem_Calloc(size, sizeof(uint64_t));
    uint16_t *firsts = PyMem_Calloc(size, sizeof(uint16_t));
    if (!e->suit_id[s] || !codes || !firsts) {
        PyMem_Free(codes);
        PyMem_Free(firsts);
        PyErr_NoMemory();
        return -1;
    }
    for (uint64_t part = 0; part < subsets; part++) {
        uint64_t code = 1, counted = 0;  /* the leading 1 marks the length */
        for (int k = 0; k < len; k++) {
            if (!(part >> k & 1)) continue;
            int i = start + k;
            if (e->counting >> i & 1) {
                code = code << 3 | 4;
                counted |= 1ULL << k;
            } else {
                code = code << 3 | (uint64_t)e->owner[i];
            }
        }
        code = code << 13 | counted;
        uint64_t j = mix(code) & (size - 1);
        for (;;) {
            if (!codes[j]) {
                codes[j] = code;
                firsts[j] = (uint16_t)part;
                break;
            }
            if (codes[j] == code) break;
            j = (j + 1) & (size - 1);
        }
        e->suit_id[s][part] = firsts[j];
    }
    PyMem_Free(codes);
    PyMem_Free(firsts);
    return 0;
}

static int Engine_init(Engine *e, PyObject *args, PyObject *kw) {
    static char *names[] = {"owner", "pips", "suit_of", "counting", "named", "jack", "low",
                            "jack_value", "low_value", "next_pos", "side_of", "maximises",
                            "nsides", "lead_key", "cheap_key", "legal", "winner", "game",
                            "timeout", NULL};
    PyObject *owner, *pips, *suit_of, *jack_value, *low_value, *next_pos, *side_of, *maxi;
    PyObject *lead_key, *cheap_key, *legal_cb, *winner_cb, *game_cb, *timeout;
    unsigned long long counting, named;
    int jack, low, nsides;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOKKiiOOOOOiOOOOOO", names, &owner, &pips,
                                     &suit_of, &counting, &named, &jack, &low, &jack_value,
                                     &low_value, &next_pos, &side_of, &maxi, &nsides,
                                     &lead_key, &cheap_key, &legal_cb, &winner_cb, &game_cb,
                                     &timeout))
        return -1;
    if (e->tt) {
        PyErr_SetString(PyExc_RuntimeError, "an engine is made once");
        return -1;
    }
    int n = int_list(owner, e->owner, MAX_CARDS, -1, "owner");
    if (n < 0) return -1;
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "no cards");
        return -1;
    }
    e->ncards = n;
    if (int_list(pips, e->pips, MAX_CARDS, n, "pips") < 0 ||
        int_list(suit_of, e->suit_of, MAX_CARDS, n, "suit_of") < 0 ||
        int_list(lead_key, e->lead_key, MAX_CARDS, n, "lead_key") < 0 ||
        int_list(cheap_key, e->cheap_key, MAX_CARDS, n, "cheap_key") < 0)
        return -1;
    int seats = int_list(next_pos, e->next_pos, MAX_SEATS, -1, "next_pos");
    if (seats < 2) {
        if (seats >= 0) PyErr_SetString(PyExc_ValueError, "two to four seats");
        return -1;
    }
    e->n = seats;
    if (int_list(jack_value, e->jack_value, MAX_SEATS, seats, "jack_value") < 0 ||
        int_list(low_value, e->low_value, MAX_SEATS, seats, "low_value") < 0 ||
        int_list(side_of, e->side_of, MAX_SEATS, seats, "side_of") < 0 ||
        int_list(maxi, e->maximises, MAX_SEATS, seats, "maximises") < 0)
        return -1;
    if (nsides < 2 || nsides > 3) {
        PyErr_SetString(PyExc_ValueError, "two or three sides");
        return -1;
    }
    e->nsides = nsides;
    e->counting = counting;
    e->named = named;
    e->jack = jack;
    e->low = low;
    e->total = 0;
    for (int i = 0; i < n; i++) {
        if (e->owner[i] < 0 || e->owner[i] >= seats || e->pips[i] < 0 || e->pips[i] > 10 ||
            (i && e->suit_of[i] < e->suit_of[i - 1])) {
            PyErr_SetString(PyExc_ValueError, "cards out of order or out of range");
            return -1;
        }
        e->total += e->pips[i];
    }
    if (e->total > 120) {
        PyErr_SetString(PyExc_ValueError, "too many pips");
        return -1;
    }
    for (int p = 0; p < seats; p++) {
        if (e->next_pos[p] < 0 || e->next_pos[p] >= seats || e->side_of[p] < 0 ||
            e->side_of[p] >= nsides) {
            PyErr_SetString(PyExc_ValueError, "seats out of range");
            return -1;
        }
    }
    e->jack_lo = e->jack_hi = e->jack_value[0];
    e->low_lo = e->low_hi = e->low_value[0];
    for (int p = 1; p < seats; p++) {
        if (e->jack_value[p] < e->jack_lo) e->jack_lo = e->jack_value[p];
        if (e->jack_value[p] > e->jack_hi) e->jack_hi = e->jack_value[p];
        if (e->low_value[p] < e->low_lo) e->low_lo = e->low_value[p];
        if (e->low_value[p] > e->low_hi) e->low_hi = e->low_value[p];
    }
    e->nsuits = 0;
    for (int i = 0; i < n; i++) {
        if (i && e->suit_of[i] == e->suit_of[i - 1]) {
            e->suit_len[e->nsuits - 1]++;
        } else {
            if (e->nsuits == MAX_SUITS) {
                PyErr_SetString(PyExc_ValueError, "too many suits");
                return -1;
            }
            e->suit_start[e->nsuits] = i;
            e->suit_len[e->nsuits++] = 1;
        }
    }
    for (int s = 0; s < e->nsuits; s++) {
        if (e->suit_len[s] > 13) {
            PyErr_SetString(PyExc_ValueError, "more than 13 cards of a suit");
            return -1;
        }
        if (suit_shapes(e, s) < 0) return -1;
    }
    int t1 = e->total + 1;
    size_t games = nsides == 2 ? (size_t)t1 : (size_t)t1 * (size_t)t1;
    size_t bounds = nsides == 2 ? (size_t)t1 * (size_t)t1 : (size_t)t1 * t1 * t1;
    e->game = PyMem_Malloc(games * sizeof(int));
    e->bound_lo = PyMem_Malloc(bounds * sizeof(int));
    e->bound_hi = PyMem_Malloc(bounds * sizeof(int));
    int tt_bits = n <= 24 ? 16 : n <= 36 ? 20 : 22;
    e->tt = PyMem_Calloc((size_t)1 << tt_bits, sizeof(TTEntry));
    e->tt_mask = (1ULL << tt_bits) - 1;
    e->legal = PyMem_Calloc(1024, sizeof(LegalEntry));
    e->legal_mask = 1023;
    e->forms = PyMem_Calloc(1024, sizeof(FormEntry));
    e->win_forms = PyMem_Calloc(WIN_FORMS_MASK + 1, sizeof(uint64_t));
    e->win_form_answer = PyMem_Calloc(WIN_FORMS_MASK + 1, sizeof(int8_t));
    e->form_mask = 1023;
    e->win = PyMem_Calloc(1024, sizeof(WinnerEntry));
    e->win_mask = 1023;
    int hint_bits = n <= 24 ? 16 : n <= 36 ? 19 : 21;
    e->hints = PyMem_Calloc((size_t)1 << hint_bits, sizeof(HintEntry));
    e->hint_mask = (1ULL << hint_bits) - 1;
    if (!e->game || !e->bound_lo || !e->bound_hi || !e->tt || !e->legal || !e->forms || !e->win_forms ||
        !e->win_form_answer || !e->win ||
        !e->hints) {
        engine_free_tables(e);
        PyErr_NoMemory();
        return -1;
    }
    for (size_t k = 0; k < games; k++) e->game[k] = INT32_MIN;
    for (size_t k = 0; k < bounds; k++) e->bound_lo[k] = e->bound_hi[k] = INT32_MIN;
    for (int d = 0; d <= MAX_CARDS; d++)
        for (int k = 0; k < MAX_SEATS; k++) e->killer[d][k] = -1;
    Py_INCREF(legal_cb);
    Py_INCREF(winner_cb);
    Py_INCREF(game_cb);
    Py_INCREF(timeout);
    e->legal_cb = legal_cb;
    e->winner_cb = winner_cb;
    e->game_cb = game_cb;
    e->timeout_type = timeout;
    /* Two sides: whether Game is the same for every split with the first side ahead (and
     * for every one with it behind), which lets the table key on the margin clipped at
     * the pips still to win -- asked of the scorer, as the Python solver does. */
    e->clip = 0;
    if (nsides == 2) {
        int ahead = INT32_MIN, behind = INT32_MIN, same = 1, split[2];
        e->err = 0;
        for (int a = 0; a <= e->total; a++) {
            if (2 * a == e->total) continue;
            split[0] = a;
            split[1] = e->total - a;
            int v = game_value(e, split);
            if (e->err) return -1;
            int *seen = 2 * a > e->total ? &ahead : &behind;
            if (*seen == INT32_MIN) *seen = v;
            else if (*seen != v) same = 0;
        }
        e->clip = same;
    }
    return 0;
}

/* set the position from Python's: hands per seat, the trick so far, the leader, pips */
static int set_position(Engine *e, PyObject *hands, PyObject *trick, int leader,
                        PyObject *pips) {
    PyObject *fast = PySequence_Fast(hands, "hands");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != e->n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a hand per seat");
        return -1;
    }
    e->remaining = 0;
    for (int p = 0; p < e->n; p++) {
        e->hands[p] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, p));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        e->remaining |= e->hands[p];
    }
    Py_DECREF(fast);
    if (e->remaining >> e->ncards) {
        PyErr_SetString(PyExc_ValueError, "a card out of range");
        return -1;
    }
    fast = PySequence_Fast(trick, "trick");
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len >= e->n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a trick in progress has fewer cards than seats");
        return -1;
    }
    for (Py_ssize_t k = 0; k < len; k++) {
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, k), "ii", &e->trick_pos[k],
                              &e->trick_card[k])) {
            Py_DECREF(fast);
            return -1;
        }
        if (e->trick_pos[k] < 0 || e->trick_pos[k] >= e->n || e->trick_card[k] < 0 ||
            e->trick_card[k] >= e->ncards) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "a trick's play out of range");
            return -1;
        }
    }
    Py_DECREF(fast);
    e->ntrick = (int)len;
    if (leader < 0 || leader >= e->n) {
        PyErr_SetString(PyExc_ValueError, "the leader is a seat");
        return -1;
    }
    e->leader = leader;
    int pv[3] = {0, 0, 0};
    if (int_list(pips, pv, 3, e->nsides, "pips") < 0) return -1;
    e->rest = e->total;
    for (int s = 0; s < e->nsides; s++) {
        e->pv[s] = pv[s];
        e->rest -= pv[s];
    }
    e->pv[2] = e->nsides == 3 ? pv[2] : 0;
    if (e->rest < 0 || pv[0] < 0 || pv[1] < 0 || pv[2] < 0) {
        PyErr_SetString(PyExc_ValueError, "pips out of range");
        return -1;
    }
    return 0;
}

/* MTD(f): the exact value by null-window tests around a guess of 0 */
static int exact(Engine *e) {
    int lower = -INF, upper = INF, value = 0;
    while (lower < upper && !e->err) {
        int beta = value == lower ? value + 1 : value;
        value = search(e, beta - 1, beta);
        if (value < beta) upper = value;
        else lower = value;
    }
    return value;
}

static int to_move(const Engine *e) {
    if (!e->ntrick) return e->remaining ? e->leader : -1;
    return e->next_pos[e->trick_pos[e->ntrick - 1]];
}

static PyObject *Engine_solve(Engine *e, PyObject *args, PyObject *kw) {
    static char *names[] = {"hands", "trick", "leader", "pips", "clock", "deadline", "best",
                            NULL};
    PyObject *hands, *trick, *pips, *clock = Py_None, *deadline = Py_None;
    int leader, want_best = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOiO|OOp", names, &hands, &trick, &leader,
                                     &pips, &clock, &deadline, &want_best))
        return NULL;
    if (!e->tt) {
        PyErr_SetString(PyExc_RuntimeError, "the engine was not made");
        return NULL;
    }
    if (set_position(e, hands, trick, leader, pips) < 0) return NULL;
    e->has_deadline = deadline != Py_None;
    if (e->has_deadline) {
        e->deadline = PyFloat_AsDouble(deadline);
        if (PyErr_Occurred()) return NULL;
        if (!PyCallable_Check(clock)) {
            PyErr_SetString(PyExc_TypeError, "a deadline needs a clock");
            return NULL;
        }
    }
    Py_INCREF(clock);
    Py_XSETREF(e->clock, clock);
    e->err = 0;
    int pos = to_move(e);
    int value, card = -1;
    if (!want_best || pos < 0) {
        value = exact(e);
    } else {
        uint64_t legal = legal_moves(e, pos, e->hands[pos]);
        int maximise = e->maximises[pos];
        value = maximise ? -INF : INF;
        for (uint64_t m = legal; m && !e->err; m &= m - 1) {
            int i = lowest(m), v;
            if (card < 0) v = child(e, pos, i, -INF, INF);
            else if (maximise) v = child(e, pos, i, value, value + 1);
            else v = child(e, pos, i, value - 1, value);
            if (e->err) break;
            if ((maximise && v > value) || (!maximise && v < value) || card < 0) {
                if (card >= 0) v = child(e, pos, i, -INF, INF);  /* better: its exact value */
                value = v;
                card = i;
            }
        }
    }
    Py_CLEAR(e->clock);
    if (e->err) return NULL;
    return Py_BuildValue("(ii)", value, card);
}

static PyObject *Engine_stats(Engine *e, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("(LLL)", e->nodes, e->table_hits, e->settled);
}

static int Engine_traverse(Engine *e, visitproc visit, void *arg) {
    Py_VISIT(e->legal_cb);
    Py_VISIT(e->winner_cb);
    Py_VISIT(e->game_cb);
    Py_VISIT(e->timeout_type);
    Py_VISIT(e->clock);
    return 0;
}

static int Engine_clear(Engine *e) {
    Py_CLEAR(e->legal_cb);
    Py_CLEAR(e->winner_cb);
    Py_CLEAR(e->game_cb);
    Py_CLEAR(e->timeout_type);
    Py_CLEAR(e->clock);
    return 0;
}

static void Engine_gc_dealloc(Engine *e) {
    PyObject_GC_UnTrack(e);
    Engine_dealloc(e);
}

static PyMethodDef Engine_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Engine_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(hands, trick, leader, pips, clock=None, deadline=None, best=False) -> "
     "(value, card): the value from the position on (and, with best, the first card in "
     "card order that keeps it; -1 when none is asked or the deal is over)."},
    {"stats", (PyCFunction)Engine_stats, METH_NOARGS,
     "stats() -> (nodes, table_hits, settled) so far."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "allfours_accel._search.Engine",
    .tp_doc = "The search of one deal from one point of view, its tables kept between calls.",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_gc_dealloc,
    .tp_traverse = (traverseproc)Engine_traverse,
    .tp_clear = (inquiry)Engine_clear,
    .tp_methods = Engine_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "allfours_accel._search",
    .m_doc = "The double-dummy search of allfours-notation's solver, compiled; the rules "
             "are asked of Python.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__search(void) {
    if (PyType_Ready(&EngineType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

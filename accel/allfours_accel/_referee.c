/*
 * What the referee and the scorer say, asked of Python the first time each question
 * comes up and kept in tables: which cards may be played (per hand, suit led and highest
 * trump on the table, and by the question's canonical form), who wins a trick (per
 * trick, per trick in canonical form, and per pair of cards), and what Game is worth for
 * a split of the pips.  No rule of All Fours is written here: only the answers are kept,
 * shared between questions on the ground the Python solver's own tables rest on (what the
 * follow rules read of a trick; a trick goes to its highest trump, else to the highest
 * card of the suit led, so the card winning so far and the next card decide), with the
 * same trumps the early stop reads (``sure_order``).
 */
#include "_engine.h"

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

static int grow_legal(Engine *e) {
    uint64_t size = (e->legal_mask + 1) * 2;
    if (size > (1ULL << 21)) {  /* memory stays bounded: start the table again */
        memset(e->legal, 0, (e->legal_mask + 1) * sizeof(LegalEntry));
        e->legal_used = 0;
        return 1;
    }
    LegalEntry *fresh = table_calloc(size, sizeof(LegalEntry));
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
    table_free(e->legal);
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

uint64_t legal_moves(Engine *e, int pos, uint64_t hand) {
    /* a seat's only card is a legal one, whatever the follow rule (the Python solver
     * plays the last trick out on the same ground) */
    if (!(hand & (hand - 1))) return hand;
    /* The follow rules read of a trick only the suit led and the highest trump in it: the
     * answer is kept per hand and those two, as the Python solver keeps it (its
     * _legal_of), so that the table stays small enough to be read from the cache */
    uint32_t code = 0;
    if (e->ntrick) {
        int top = -1;
        for (int t = 0; t < e->ntrick; t++) {
            int c = e->trick_card[t];
            if (e->trumps >> c & 1 && c > top) top = c;
        }
        code = (uint32_t)(e->suit_of[e->trick_card[0]] + 1) | (uint32_t)(top + 1) << 4;
    }
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
    WinnerEntry *fresh = table_calloc(size, sizeof(WinnerEntry));
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
    table_free(e->win);
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

/* who wins the trick on the table with card ``extra`` played to it, as the referee says
 * (its answers kept per trick, and per trick in canonical form) */
static int winner_asked(Engine *e, int extra) {
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
int game_value(Engine *e, const int *pv) {
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

/* The least and the most Game can still be worth with the pips ``pv`` taken and ``rest``
 * more still to take. */
void game_bounds(Engine *e, const int *pv, int rest, int *lo, int *hi) {
    int t = e->total;
    int at = e->nsides == 2 ? pv[0] * (t + 1) + rest
                            : (pv[0] * (t + 1) + pv[1]) * (t + 1) + rest;
    if (e->bound_lo[at] != INT32_MIN) {
        *lo = e->bound_lo[at];
        *hi = e->bound_hi[at];
        return;
    }
    int low = INF, high = -INF, split[3];
    if (e->nsides == 2) {
        for (int a = pv[0]; a <= pv[0] + rest; a++) {
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
                split[0] = pv[0] + x;
                split[1] = pv[1] + y;
                split[2] = pv[2] + rest - x - y;
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

/* Who wins the trick on the table with card ``extra`` played to it (a trick not yet
 * complete: who is winning it so far).  A trick goes to its highest trump, else to the
 * highest card of the suit led (rule 19): the card winning so far and the next card say
 * which of the two wins, whatever came before.  So the referee's answers are also kept
 * per pair (the card winning so far, the card played to it), read at every question; a
 * pair's answer comes from a real trick asked of the referee, and an answer that names
 * neither card's holder turns the pairs off for the deal (then every question is asked
 * per trick). */
int winner_of(Engine *e, int extra) {
    int len = e->ntrick + (extra >= 0);
    if (!e->pairwise || len < 2) return winner_asked(e, extra);
    int w = e->trick_card[0];
    for (int k = 1; k < len; k++) {
        int c = k < e->ntrick ? e->trick_card[k] : extra;
        int beats = e->pair_beats[w][c];
        if (!beats) {
            int saved = e->ntrick;
            e->ntrick = k;  /* the trick's first k cards, and c */
            int s = winner_asked(e, c);
            e->ntrick = saved;
            if (e->err) return 0;
            if (s == e->owner[c]) {
                beats = 2;
            } else if (s == e->owner[w]) {
                beats = 1;
            } else {
                /* off the ground the pairs and the partition entries stand on */
                e->pairwise = 0;
                e->partition = 0;
                return winner_asked(e, extra);
            }
            e->pair_beats[w][c] = (int8_t)beats;
        }
        if (beats == 2) w = c;
    }
    return e->owner[w];
}

/*
 * The engine as Python sees it: the Engine type (its tables made and freed, a position
 * set from Python's hands and trick), its solve, bounds, stats and profile methods, and
 * the module.  The search itself is _search.c's (see _engine.h); this file knows no rule
 * of All Fours either.
 */
#include "_engine.h"

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
    tt_free(e);
    part_free(e);
    table_free(e->legal);
    PyMem_Free(e->forms);
    PyMem_Free(e->win_forms);
    PyMem_Free(e->win_form_answer);
    table_free(e->win);
    e->game = e->bound_lo = e->bound_hi = NULL;
    e->legal = NULL;
    e->forms = NULL;
    e->win_forms = NULL;
    e->win_form_answer = NULL;
    e->win = NULL;
#ifdef AFN_SEARCH_STATS
    PyMem_Free(e->st);
    e->st = NULL;
#endif
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

static int Engine_init(Engine *e, PyObject *args, PyObject *kw) {
    static char *names[] = {"owner", "pips", "suit_of", "counting", "named", "jack", "low",
                            "jack_value", "low_value", "next_pos", "side_of", "maximises",
                            "nsides", "lead_key", "cheap_key", "win_key", "sure_order", "legal", "winner", "game",
                            "timeout", "forcing", "pip_search", "partition", "legal_ranks", "grow_after", NULL};
    PyObject *owner, *pips, *suit_of, *jack_value, *low_value, *next_pos, *side_of, *maxi;
    PyObject *lead_key, *cheap_key, *win_key, *sure_order, *legal_cb, *winner_cb, *game_cb, *timeout;
    unsigned long long counting, named;
    int jack, low, nsides, forcing = 1, pip_search = 1, partition = 1, legal_ranks = 1;
    long long grow_after = GROW_AFTER;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOKKiiOOOOOiOOOOOOOO|ppppL", names, &owner, &pips,
                                     &suit_of, &counting, &named, &jack, &low, &jack_value,
                                     &low_value, &next_pos, &side_of, &maxi, &nsides,
                                     &lead_key, &cheap_key, &win_key, &sure_order, &legal_cb, &winner_cb, &game_cb,
                                     &timeout, &forcing, &pip_search, &partition, &legal_ranks, &grow_after))
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
        int_list(cheap_key, e->cheap_key, MAX_CARDS, n, "cheap_key") < 0 ||
        int_list(win_key, e->win_key, MAX_CARDS, n, "win_key") < 0)
        return -1;
    e->nsure = int_list(sure_order, e->sure_order, MAX_CARDS, -1, "sure_order");
    if (e->nsure < 0) return -1;
    e->pairwise = 1;
    memset(e->pair_beats, 0, sizeof e->pair_beats);
    e->trumps = 0;
    for (int k = 0; k < e->nsure; k++) {
        if (e->sure_order[k] < 0 || e->sure_order[k] >= n) {
            PyErr_SetString(PyExc_ValueError, "sure_order: a card out of range");
            return -1;
        }
        e->trumps |= 1ULL << e->sure_order[k];
    }
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
    e->forcing = forcing;
    e->pip_search = pip_search;
    e->pipmode = 0;
    e->partition = partition;
    if (grow_after < 0) {
        PyErr_SetString(PyExc_ValueError, "grow_after is a count of nodes (0: never)");
        return -1;
    }
    e->grow_after = grow_after;
    e->legal_ranks = legal_ranks;
    /* the cards by their pips, cheapest first (class 0: no pips), for the early stop */
    memset(e->pip_class, 0, sizeof e->pip_class);
    e->class_pips[0] = 0;
    for (int i = 0; i < n; i++)
        if (!e->pips[i]) e->pip_class[0] |= 1ULL << i;
    e->nclasses = 1;
    for (int v = 1; v <= 10; v++) {
        uint64_t mask = 0;
        for (int i = 0; i < n; i++)
            if (e->pips[i] == v) mask |= 1ULL << i;
        if (!mask) continue;
        e->pip_class[e->nclasses] = mask;
        e->class_pips[e->nclasses++] = v;
    }
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
    e->legal = table_calloc(1024, sizeof(LegalEntry));
    e->legal_mask = 1023;
    e->forms = PyMem_Calloc(1024, sizeof(FormEntry));
    e->win_forms = PyMem_Calloc(WIN_FORMS_MASK + 1, sizeof(uint64_t));
    e->win_form_answer = PyMem_Calloc(WIN_FORMS_MASK + 1, sizeof(int8_t));
    e->form_mask = 1023;
    e->win = table_calloc(1024, sizeof(WinnerEntry));
    e->win_mask = 1023;
#ifdef AFN_SEARCH_STATS
    e->st = PyMem_Calloc(1, sizeof(SearchStats));
    if (!e->st) {
        engine_free_tables(e);
        PyErr_NoMemory();
        return -1;
    }
#endif
    if (!e->game || !e->bound_lo || !e->bound_hi || !e->legal || !e->forms || !e->win_forms ||
        !e->win_form_answer || !e->win) {
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
    e->monotone = 0;
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
        /* and whether Game never falls for the first side as its pips grow */
        e->monotone = same;
        for (int a = 0; a < e->total && e->monotone; a++) {
            int low[2] = {a, e->total - a}, high[2] = {a + 1, e->total - a - 1};
            int v = game_value(e, low), w = game_value(e, high);
            if (e->err) return -1;
            if (v > w) e->monotone = 0;
        }
    }
    /* the pips-margin search (pip_enter) needs two sides, Game monotone and the first
     * side the one that maximises */
    if (!e->monotone) e->pip_search = 0;
    for (int p = 0; p < e->n; p++)
        if (e->maximises[p] != (e->side_of[p] == 0)) e->pip_search = 0;
    /* the table: 16 bytes an entry, 2, 32, 128 MB (the partition entries in it too) */
    int tt_bits = n <= 24 ? 17 : n <= 36 ? 21 : 23;
    if (tt_alloc(e, (size_t)1 << tt_bits) < 0 || part_setup(e) < 0) {
        engine_free_tables(e);
        return -1;
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
    e->pipmode = 0;
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

/* The first side's pips margin from the position on, each side playing for its margin
 * alone (the pips-margin search's value, the items left out): null-window tests that
 * bisect the range of the pips still out.  For the differential tests of what that
 * search keeps (its partition entries above all): a margin is a finer answer than Game's
 * value, which a wrong margin often leaves the same. */
static PyObject *Engine_margin(Engine *e, PyObject *args, PyObject *kw) {
    static char *names[] = {"hands", "trick", "leader", "pips", NULL};
    PyObject *hands, *trick, *pips;
    int leader;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOiO", names, &hands, &trick, &leader, &pips))
        return NULL;
    if (!e->tt) {
        PyErr_SetString(PyExc_RuntimeError, "the engine was not made");
        return NULL;
    }
    if (!e->pip_search) {
        PyErr_SetString(PyExc_ValueError, "no pips-margin search for this deal");
        return NULL;
    }
    if (set_position(e, hands, trick, leader, pips) < 0) return NULL;
    e->err = 0;
    e->has_deadline = 0;
    e->pipmode = 1;
    int lower = -e->rest, upper = e->rest;
    while (lower < upper && !e->err) {
        int beta = lower + (upper - lower + 1) / 2;
        int v = search(e, beta - 1, beta);
        if (v >= beta) lower = v > upper ? upper : v;
        else upper = v < lower ? lower : v;
    }
    e->pipmode = 0;
    if (e->err) return NULL;
    return PyLong_FromLong(lower);
}

/* the early stop's bounds at a trick boundary (for the differential test) */
static PyObject *Engine_bounds(Engine *e, PyObject *args, PyObject *kw) {
    static char *names[] = {"hands", "leader", "pips", NULL};
    PyObject *hands, *pips;
    int leader;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OiO", names, &hands, &leader, &pips))
        return NULL;
    if (!e->tt) {
        PyErr_SetString(PyExc_RuntimeError, "the engine was not made");
        return NULL;
    }
    PyObject *trick = PyTuple_New(0);
    if (!trick) return NULL;
    int bad = set_position(e, hands, trick, leader, pips);
    Py_DECREF(trick);
    if (bad < 0) return NULL;
    e->err = 0;
    Credit credit;
    open_bounds(e, -INF, INF, &credit);
    if (!e->err) led_bounds(e, -INF, INF, &credit);
    if (e->err) return NULL;
    return Py_BuildValue("(ii)", credit.low, credit.high);
}

static PyObject *Engine_stats(Engine *e, PyObject *Py_UNUSED(ignored)) {
    return Py_BuildValue("(LLL)", e->nodes, e->table_hits, e->settled);
}

static PyObject *Engine_table_size(Engine *e, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromUnsignedLongLong(e->tt ? e->tt_mask + 1 : 0);
}

#ifdef AFN_SEARCH_STATS
static PyObject *depth_list(const long long *values, int stride, int count) {
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    for (int d = 0; d < count; d++) {
        PyObject *v = PyLong_FromLongLong(values[d * stride]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, d, v);
    }
    return out;
}

/* Everything counted so far, as a dict of lists indexed by the cards still out (those
 * per card on the table too as "name/t"), and the null-window tests of the last solve */
static PyObject *Engine_profile(Engine *e, PyObject *Py_UNUSED(ignored)) {
    SearchStats *st = e->st;
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    struct { const char *name; const long long *values; int per_trick; } rows[] = {
        {"nodes", &st->nodes[0][0], 1}, {"cuts", &st->cuts[0][0], 1},
        {"cut_first", &st->cut_first[0][0], 1}, {"cut_index", &st->cut_index[0][0], 1},
        {"children", &st->children[0][0], 1}, {"settled", st->settled, 0},
        {"probes", st->probes, 0}, {"found", st->found, 0}, {"tt_cut", st->tt_cut, 0},
        {"hint_used", st->hint_used, 0}, {"stores", st->stores, 0}, {"evict", st->evict, 0},
        {"evict_deeper", st->evict_deeper, 0}, {"etc_tries", st->etc_tries, 0},
        {"etc_fires", st->etc_fires, 0}, {"part_out", st->part_out, 0},
        {"part_kept", st->part_kept, 0}, {"pip_nodes", st->pip_nodes, 0},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        for (int t = 0; t < (rows[r].per_trick ? MAX_SEATS : 1); t++) {
            char name[64];
            if (rows[r].per_trick) snprintf(name, sizeof name, "%s/%d", rows[r].name, t);
            else snprintf(name, sizeof name, "%s", rows[r].name);
            PyObject *v = rows[r].per_trick ? depth_list(rows[r].values + t, MAX_SEATS, MAX_CARDS + 1)
                                            : depth_list(rows[r].values, 1, MAX_CARDS + 1);
            if (!v || PyDict_SetItemString(out, name, v) < 0) {
                Py_XDECREF(v);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(v);
        }
    }
    PyObject *tests = PyList_New(0);
    if (!tests) {
        Py_DECREF(out);
        return NULL;
    }
    for (int t = 0; t < st->ntests; t++) {
        PyObject *root = PyList_New(0);
        for (int k = 0; root && k < st->root_count[t]; k++) {
            PyObject *pair = Py_BuildValue("(iL)", st->root_card[t][k], st->root_nodes[t][k]);
            if (!pair || PyList_Append(root, pair) < 0) Py_CLEAR(root);
            Py_XDECREF(pair);
        }
        PyObject *test = root ? Py_BuildValue("{s:i,s:i,s:L,s:N}", "beta", st->test_beta[t],
                                              "value", st->test_value[t], "nodes",
                                              st->test_nodes[t], "root", root) : NULL;
        if (!test || PyList_Append(tests, test) < 0) {
            Py_XDECREF(test);
            Py_DECREF(tests);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(test);
    }
    PyObject *source = PyList_New(0), *kinds = PyList_New(0);
    for (int t = 0; source && kinds && t < MAX_SEATS; t++) {
        for (int src = 0; src < 3; src++) {
            PyObject *row = Py_BuildValue("(iiLL)", t, src, st->source[t][src][0], st->source[t][src][1]);
            if (!row || PyList_Append(source, row) < 0) Py_CLEAR(source);
            Py_XDECREF(row);
            if (!source) break;
        }
        for (int a = 0; kinds && a < 8; a++)
            for (int b = 0; kinds && b < 8; b++) {
                if (!st->kinds[t][a][b]) continue;
                PyObject *row = Py_BuildValue("(iiiL)", t, a, b, st->kinds[t][a][b]);
                if (!row || PyList_Append(kinds, row) < 0) Py_CLEAR(kinds);
                Py_XDECREF(row);
            }
    }
    if (!source || !kinds || PyDict_SetItemString(out, "source", source) < 0 ||
        PyDict_SetItemString(out, "kinds", kinds) < 0) {
        Py_XDECREF(source);
        Py_XDECREF(kinds);
        Py_DECREF(tests);
        Py_DECREF(out);
        return NULL;
    }
    Py_DECREF(source);
    Py_DECREF(kinds);
    if (PyDict_SetItemString(out, "tests", tests) < 0) {
        Py_DECREF(tests);
        Py_DECREF(out);
        return NULL;
    }
    Py_DECREF(tests);
    return out;
}
#endif

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
    {"bounds", (PyCFunction)(void (*)(void))Engine_bounds, METH_VARARGS | METH_KEYWORDS,
     "bounds(hands, leader, pips) -> (least, most): the early stop's bounds on what the "
     "items still open are worth at this trick boundary."},
    {"margin", (PyCFunction)(void (*)(void))Engine_margin, METH_VARARGS | METH_KEYWORDS,
     "margin(hands, trick, leader, pips) -> int: the first side's pips margin from the "
     "position on, each side playing for its margin alone (the pips-margin search)."},
    {"stats", (PyCFunction)Engine_stats, METH_NOARGS,
     "stats() -> (nodes, table_hits, settled) so far."},
    {"table_size", (PyCFunction)Engine_table_size, METH_NOARGS,
     "table_size() -> int: the transposition table's entries (it grows once, fourfold, "
     "after grow_after nodes)."},
#ifdef AFN_SEARCH_STATS
    {"profile", (PyCFunction)Engine_profile, METH_NOARGS,
     "profile() -> dict: what the search did (a build with -DAFN_SEARCH_STATS only)."},
#endif
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
    /* what accelerated.py passes the engine and expects back: a build of another
     * interface is not used (the pure-Python solver is, with the same values) */
    if (PyModule_AddIntConstant(m, "INTERFACE", 6) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

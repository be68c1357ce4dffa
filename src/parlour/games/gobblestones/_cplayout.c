/*
 * GobbleStones random playouts, compiled: the rules of game.py and plays.py (B3-B7, normal
 * game), step for step, for GobbleStonesState.random_playout.
 *
 * The Python state hands over its fields once; this plays on (deal, plays, draws) drawing one
 * number from the caller's random() per action exactly as State.random_playout defines it
 * (a player's action is legal[int(r * len(legal))] with legal ascending; chance by
 * pick_chance_outcome's rule over the colours left in the bag), and hands back the fields and
 * the actions. The tests check that it plays the very same actions as the Python loop.
 *
 * A turn's legal plays are found by walking every start square rightwards and downwards, as
 * plays.legal_plays does: empty squares, tiles of the rack matching their squares, no 2 x 2
 * block of covered squares (B5), and at least one square touching a tile on the board (B4) or,
 * for the game's first play, a centre square (B3).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define SIZE 15
#define SQUARES 225
#define COLOURS 5
#define MAX_PLAY 5
#define RACK_DRAW 5
#define MAX_PLAYERS 4
#define PASS_ACTION 225
#define END_ACTION 226

enum { DEAL = 0, PLAY = 1, DRAW = 2, END = 3 };
enum { NO_END = 0, END_BAG = 1, END_NO_TILES = 2, END_PASSES = 3, END_MAX_TURNS = 4 };

typedef struct {
    int n;
    unsigned char colour[SQUARES], value[SQUARES];
    signed char tile[SQUARES];  /* tile colour, -1 for an empty square */
    int covered;                /* squares covered */
    int racks[MAX_PLAYERS][COLOURS], bag[COLOURS], points[MAX_PLAYERS];
    int phase, turn, drawer, to_draw, passes, turns, max_turns, end;
    int pending[MAX_PLAY], npending;
    /* the legal plays of the turn: single[s]; lengths[d][s] bit k = a play of k tiles */
    int fresh;
    unsigned char single[SQUARES], lengths[2][SQUARES];
    PyObject *random, *actions;
} Game;

static const int CENTRES[9] = {32, 37, 42, 107, 112, 117, 182, 187, 192};

/* The covered squares with a border of empty ones: cv[(r + 1) * W + c + 1]. */
#define W (SIZE + 2)
#define CV(r, c) cv[((r) + 1) * W + (c) + 1]

/* B5: covering (r, c) alone would complete a 2 x 2 block (three of its squares covered). */
static inline int completes_block(const unsigned char *cv, int r, int c) {
    int n = CV(r - 1, c), s = CV(r + 1, c), w = CV(r, c - 1), e = CV(r, c + 1);
    return (n && w && CV(r - 1, c - 1)) || (n && e && CV(r - 1, c + 1))
        || (s && w && CV(r + 1, c - 1)) || (s && e && CV(r + 1, c + 1));
}

static void turn_plays(Game *g) {
    int rack[COLOURS], tiles = 0;
    unsigned char ok[SQUARES], target[SQUARES], cv[W * W];
    for (int c = 0; c < COLOURS; c++) rack[c] = g->racks[g->turn][c];
    for (int i = 0; i < g->npending; i++) rack[g->colour[g->pending[i]]]++;
    for (int c = 0; c < COLOURS; c++) tiles += rack[c];
    int longest = tiles < MAX_PLAY ? tiles : MAX_PLAY;
    memset(g->single, 0, sizeof g->single);
    memset(g->lengths, 0, sizeof g->lengths);
    g->fresh = 1;
    if (longest <= 0) return;
    memset(cv, 0, sizeof cv);
    for (int s = 0; s < SQUARES; s++)
        if (g->tile[s] >= 0) CV(s / SIZE, s % SIZE) = 1;
    for (int r = 0, s = 0; r < SIZE; r++)
        for (int c = 0; c < SIZE; c++, s++) {
            if (g->tile[s] >= 0) {
                ok[s] = target[s] = 0;
                continue;
            }
            ok[s] = rack[g->colour[s]] > 0 && !completes_block(cv, r, c);
            target[s] = g->covered
                ? (CV(r - 1, c) | CV(r + 1, c) | CV(r, c - 1) | CV(r, c + 1))
                : 0;
        }
    if (g->covered == 0)
        for (int i = 0; i < 9; i++) target[CENTRES[i]] = 1;
    for (int s = 0; s < SQUARES; s++) {
        if (!ok[s]) continue;
        g->single[s] = target[s];
        int r0 = s / SIZE, c0 = s % SIZE;
        for (int d = 0; d < 2; d++) {
            /* a segment from s must reach a target square within `longest` squares */
            int reach = 0;
            for (int k = 0; k < longest && !reach; k++) {
                int r = d ? r0 + k : r0, c = d ? c0 : c0 + k;
                if (r >= SIZE || c >= SIZE) break;
                reach = target[r * SIZE + c];
            }
            if (!reach) continue;
            int left[COLOURS];
            memcpy(left, rack, sizeof left);
            left[g->colour[s]]--;
            int touch = target[s], bits = 0;
            for (int k = 2; k <= longest; k++) {
                int r = d ? r0 + k - 1 : r0, c = d ? c0 : c0 + k - 1;
                if (r >= SIZE || c >= SIZE) break;
                int t = r * SIZE + c;
                if (!ok[t]) break;
                /* B5 with the square before: the two new tiles and two covered squares */
                if (d == 0 && ((CV(r - 1, c) && CV(r - 1, c - 1)) ||
                               (CV(r + 1, c) && CV(r + 1, c - 1)))) break;
                if (d == 1 && ((CV(r, c - 1) && CV(r - 1, c - 1)) ||
                               (CV(r, c + 1) && CV(r - 1, c + 1)))) break;
                if (!left[g->colour[t]]) break;
                left[g->colour[t]]--;
                touch |= target[t];
                if (touch) bits |= 1 << k;
            }
            g->lengths[d][s] = (unsigned char)bits;
        }
    }
}

static int draw_number(Game *g, double *r) {
    PyObject *x = PyObject_CallNoArgs(g->random);
    if (!x) return -1;
    *r = PyFloat_AsDouble(x);
    Py_DECREF(x);
    if (*r == -1.0 && PyErr_Occurred()) return -1;
    return 0;
}

static int record(Game *g, int action) {
    PyObject *a = PyLong_FromLong(action);
    if (!a) return -1;
    int rc = PyList_Append(g->actions, a);
    Py_DECREF(a);
    return rc;
}

static void finish(Game *g, int reason) {
    g->phase = END;
    g->end = reason;
    g->drawer = -1;
    g->to_draw = 0;
}

static int rack_empty(const Game *g, int p) {
    for (int c = 0; c < COLOURS; c++)
        if (g->racks[p][c]) return 0;
    return 1;
}

static int bag_total(const Game *g) {
    int t = 0;
    for (int c = 0; c < COLOURS; c++) t += g->bag[c];
    return t;
}

static void begin_turn(Game *g, int player) {
    g->turn = player;
    g->fresh = 0;
    if (g->turns >= g->max_turns) finish(g, END_MAX_TURNS);
    else if (rack_empty(g, player)) finish(g, END_NO_TILES);  /* B7 */
    else g->phase = PLAY;
}

static void next_drawer(Game *g) {
    for (;;) {
        if (g->drawer >= g->n - 1) {
            g->drawer = -1;
            g->to_draw = 0;
            begin_turn(g, 0);
            return;
        }
        g->drawer++;
        int bag = bag_total(g);
        g->to_draw = bag < RACK_DRAW ? bag : RACK_DRAW;
        if (g->to_draw) return;
    }
}

static void after_play(Game *g, int placed) {
    int bag = bag_total(g);
    g->passes = (placed == 0 && bag == 0) ? g->passes + 1 : 0;
    g->turns++;
    g->npending = 0;
    g->fresh = 0;
    int player = g->turn, need = RACK_DRAW - placed;
    int count = need < bag ? need : bag;
    if (bag < need && rack_empty(g, player)) finish(g, END_BAG);  /* B7 */
    else if (g->passes >= g->n) finish(g, END_PASSES);             /* B7 */
    else if (count > 0) {
        g->phase = DRAW;
        g->drawer = player;
        g->to_draw = count;
    } else begin_turn(g, (player + 1) % g->n);
}

static void commit(Game *g) {
    int earned = 0;
    for (int i = 0; i < g->npending; i++) {
        int s = g->pending[i];
        g->tile[s] = (signed char)g->colour[s];
        g->covered++;
        earned += g->value[s];
    }
    g->points[g->turn] += earned;
    after_play(g, g->npending);
}

/* One player step; returns -1 on a Python error. */
static int play_step(Game *g) {
    int squares[SQUARES], count = 0, can_end = 0;
    double r;
    if (!g->fresh) turn_plays(g);
    if (g->npending == 0) {
        for (int s = 0; s < SQUARES; s++)
            if (g->single[s] || g->lengths[0][s] || g->lengths[1][s]) squares[count++] = s;
    } else {
        int p0 = g->pending[0], k = g->npending;
        if (k == 1) {
            if (g->lengths[0][p0]) squares[count++] = p0 + 1;
            if (g->lengths[1][p0]) squares[count++] = p0 + SIZE;
            can_end = g->single[p0];
        } else {
            int d = g->pending[1] - p0 == 1 ? 0 : 1;
            int bits = g->lengths[d][p0];
            if (bits >> (k + 1)) squares[count++] = g->pending[k - 1] + (d ? SIZE : 1);
            can_end = (bits >> k) & 1;
        }
    }
    if (draw_number(g, &r) < 0) return -1;
    long total = count + (g->npending ? can_end : 1);
    long k = (long)(r * (double)total);
    if (k < count) {
        int s = squares[k];
        g->racks[g->turn][g->colour[s]]--;
        g->pending[g->npending++] = s;
        return record(g, s);
    }
    if (g->npending) {
        commit(g);
        return record(g, END_ACTION);
    }
    after_play(g, 0);
    return record(g, PASS_ACTION);
}

/* One tile drawn from the bag (chance, by the colours left). */
static int draw_step(Game *g) {
    double r;
    int total = bag_total(g), colour = -1;
    if (draw_number(g, &r) < 0) return -1;
    for (int c = 0; c < COLOURS; c++) {
        if (!g->bag[c]) continue;
        colour = c;
        r -= (double)g->bag[c] / (double)total;
        if (r < 0) break;
    }
    g->bag[colour]--;
    g->racks[g->drawer][colour]++;
    if (record(g, colour) < 0) return -1;
    if (--g->to_draw) return 0;
    if (g->phase == DEAL) next_drawer(g);
    else {
        g->drawer = -1;
        begin_turn(g, (g->turn + 1) % g->n);
    }
    return 0;
}

static int read_ints(PyObject *seq, int *out, int n, const char *what) {
    if (!PyList_Check(seq) || PyList_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "%s: a list of %d ints", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        out[i] = (int)v;
    }
    return 0;
}

static PyObject *ints(const int *v, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

static PyObject *playout(PyObject *self, PyObject *args) {
    Py_buffer board;
    PyObject *tiles, *racks, *bag, *points, *pending, *random;
    Game g;
    long budget;
    if (!PyArg_ParseTuple(args, "y*O!O!O!O!iiiiiiiO!Ol", &board, &PyList_Type, &tiles,
                          &PyList_Type, &racks, &PyList_Type, &bag, &PyList_Type, &points,
                          &g.phase, &g.turn, &g.drawer, &g.to_draw, &g.passes, &g.turns,
                          &g.max_turns, &PyList_Type, &pending, &random, &budget))
        return NULL;
    if (board.len != 2 * SQUARES) {
        PyBuffer_Release(&board);
        PyErr_SetString(PyExc_ValueError, "board: 225 colours then 225 values");
        return NULL;
    }
    memcpy(g.colour, board.buf, SQUARES);
    memcpy(g.value, (const char *)board.buf + SQUARES, SQUARES);
    PyBuffer_Release(&board);
    g.n = (int)PyList_GET_SIZE(racks);
    g.npending = (int)PyList_GET_SIZE(pending);
    if (g.n < 2 || g.n > MAX_PLAYERS || g.npending > MAX_PLAY) {
        PyErr_SetString(PyExc_ValueError, "2-4 racks and at most 5 pending tiles");
        return NULL;
    }
    int tile[SQUARES];
    if (read_ints(tiles, tile, SQUARES, "tiles") < 0 || read_ints(bag, g.bag, COLOURS, "bag") < 0
        || read_ints(points, g.points, g.n, "points") < 0
        || read_ints(pending, g.pending, g.npending, "pending") < 0)
        return NULL;
    g.covered = 0;
    for (int s = 0; s < SQUARES; s++) {
        g.tile[s] = (signed char)tile[s];
        g.covered += tile[s] >= 0;
    }
    for (int p = 0; p < g.n; p++)
        if (read_ints(PyList_GET_ITEM(racks, p), g.racks[p], COLOURS, "rack") < 0) return NULL;
    g.end = NO_END;
    g.fresh = 0;
    g.random = random;
    g.actions = PyList_New(0);
    if (!g.actions) return NULL;
    long done = 0;
    while (done != budget && g.phase != END) {
        int rc = g.phase == PLAY ? play_step(&g) : draw_step(&g);
        if (rc < 0) {
            Py_DECREF(g.actions);
            return NULL;
        }
        done++;
    }
    unsigned char occ[29];
    memset(occ, 0, sizeof occ);
    for (int s = 0; s < SQUARES; s++) {
        tile[s] = g.tile[s];
        if (g.tile[s] >= 0) occ[s >> 3] |= (unsigned char)(1u << (s & 7));
    }
    PyObject *rack_list = PyList_New(g.n);
    if (!rack_list) {
        Py_DECREF(g.actions);
        return NULL;
    }
    for (int p = 0; p < g.n; p++) {
        PyObject *one = ints(g.racks[p], COLOURS);
        if (!one) {
            Py_DECREF(rack_list);
            Py_DECREF(g.actions);
            return NULL;
        }
        PyList_SET_ITEM(rack_list, p, one);
    }
    return Py_BuildValue("(NNy#NNNiiiiiiiN)", g.actions, ints(tile, SQUARES), occ,
                         (Py_ssize_t)sizeof occ, rack_list,
                         ints(g.bag, COLOURS), ints(g.points, g.n), g.phase, g.turn, g.drawer,
                         g.to_draw, g.passes, g.turns, g.end, ints(g.pending, g.npending));
}

/* ---------------------------------------------------------------- the board (B1) */
#define PANEL 5
#define PANEL_STEPS (PANEL * PANEL + 1)
#define BOARD_STEPS (9 * PANEL_STEPS)
#define PERMS 120

static int PERM[PERMS][COLOURS];  /* itertools.permutations((2, 3, 4, 5, 6)), in its order */

static void make_permutations(void) {
    int a[COLOURS] = {2, 3, 4, 5, 6};
    for (int i = 0; i < PERMS; i++) {
        memcpy(PERM[i], a, sizeof a);
        /* next permutation in lexicographic order */
        int k = COLOURS - 2;
        while (k >= 0 && a[k] >= a[k + 1]) k--;
        if (k < 0) break;
        int l = COLOURS - 1;
        while (a[l] <= a[k]) l--;
        int t = a[k]; a[k] = a[l]; a[l] = t;
        for (int x = k + 1, y = COLOURS - 1; x < y; x++, y--) {
            t = a[x]; a[x] = a[y]; a[y] = t;
        }
    }
}

static inline int panel_cell(int panel, int step) {
    return ((panel / 3) * PANEL + step / PANEL) * SIZE + (panel % 3) * PANEL + step % PANEL;
}

/* board(colours, values, gen, used, random, budget) -> (actions, colours, values, gen, used):
 * chance draws the board as game.py's chance_outcomes say, one number per step. */
static PyObject *board(PyObject *self, PyObject *args) {
    PyObject *colours_in, *values_in, *used_in, *random;
    int colour[SQUARES], value[SQUARES], used[9], gen, nused;
    long budget;
    if (!PyArg_ParseTuple(args, "O!O!iO!Ol", &PyList_Type, &colours_in, &PyList_Type, &values_in,
                          &gen, &PyList_Type, &used_in, &random, &budget))
        return NULL;
    nused = (int)PyList_GET_SIZE(used_in);
    if (nused > 9 || gen < 0 || gen > BOARD_STEPS) {
        PyErr_SetString(PyExc_ValueError, "bad board progress");
        return NULL;
    }
    if (read_ints(colours_in, colour, SQUARES, "colours") < 0
        || read_ints(values_in, value, SQUARES, "values") < 0
        || read_ints(used_in, used, nused, "used") < 0)
        return NULL;
    Game g;
    g.random = random;
    g.actions = PyList_New(0);
    if (!g.actions) return NULL;
    long done = 0;
    while (done != budget && gen < BOARD_STEPS) {
        int panel = gen / PANEL_STEPS, step = gen % PANEL_STEPS, action = -1;
        double r;
        if (draw_number(&g, &r) < 0) goto fail;
        if (step < PANEL * PANEL) {
            int drawn[COLOURS] = {0, 0, 0, 0, 0};
            for (int i = 0; i < step; i++) drawn[colour[panel_cell(panel, i)]]++;
            int left = PANEL * PANEL - step;
            for (int c = 0; c < COLOURS; c++) {
                if (drawn[c] >= PANEL) continue;
                action = c;
                r -= (double)(PANEL - drawn[c]) / (double)left;
                if (r < 0) break;
            }
            colour[panel_cell(panel, step)] = action;
        } else {
            double p = 1.0 / (double)(PERMS - nused);
            for (int i = 0; i < PERMS; i++) {
                int taken = 0;
                for (int j = 0; j < nused; j++) taken |= used[j] == i;
                if (taken) continue;
                action = i;
                r -= p;
                if (r < 0) break;
            }
            for (int i = 0; i < PANEL * PANEL; i++) {
                int cell = panel_cell(panel, i);
                value[cell] = PERM[action][colour[cell]];
            }
            used[nused++] = action;
        }
        if (record(&g, action) < 0) goto fail;
        gen++;
        done++;
    }
    return Py_BuildValue("(NNNiN)", g.actions, ints(colour, SQUARES), ints(value, SQUARES), gen,
                         ints(used, nused));
fail:
    Py_DECREF(g.actions);
    return NULL;
}

static PyMethodDef methods[] = {
    {"board", board, METH_VARARGS,
     "board(colours, values, gen, used, random, budget) -> (actions, colours, values, gen, used)"},
    {"playout", playout, METH_VARARGS,
     "playout(board, tiles, racks, bag, points, phase, turn, drawer, to_draw, passes, turns, "
     "max_turns, pending, random, budget) -> (actions, tiles, occupied, racks, bag, points, phase, "
     "turn, drawer, to_draw, passes, turns, end, pending)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_cplayout", "Compiled GobbleStones random playouts.", -1, methods,
};

PyMODINIT_FUNC PyInit__cplayout(void) {
    make_permutations();
    return PyModule_Create(&moduledef);
}

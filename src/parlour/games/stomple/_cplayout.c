/*
 * Stomple random playouts, compiled: the rules of game.py (S1-S12), step for step, for
 * StompleState.random_playout.
 *
 * The Python state hands over its fields once; this plays on (deals, stomper draws, stomps,
 * strings, knock-outs, rounds) drawing one number from the caller's random() per action
 * exactly as State.random_playout defines it (a stomp is legal[int(r * len(legal))] with the
 * legal holes ascending; chance by pick_chance_outcome's rule), and hands back the fields and
 * the actions. The tests check that it plays the very same actions as the Python loop.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "parlour_playout.h"  /* read_ints, ints, draw_number, record */

typedef uint64_t u64;

#define SIZE 7
#define HOLES 49
#define KINDS 7
#define COLOURS 6
#define PER_KIND 7
#define CATS_EYE 6
#define MAX_PLAYERS 6
enum { WAITING = 0, ON_BOARD = 1, OUT = 2 };

static u64 ADJACENT[HOLES], OUTER;

typedef struct {
    int n, target, single;
    u64 masks[KINDS], marbles;
    int dealt, drawn, to_move, string, round, over;
    int colour[MAX_PLAYERS], pos[MAX_PLAYERS], status[MAX_PLAYERS], scores[MAX_PLAYERS];
    PyObject *random, *actions;
} Game;

static int can_stomp(const Game *g, int p) {
    if (g->status[p] == WAITING) return (OUTER & g->marbles) != 0;
    return (ADJACENT[g->pos[p]] & g->marbles) || g->masks[g->colour[p]];
}

static u64 legal_bits(const Game *g) {
    int p = g->to_move;
    if (g->string >= 0) return ADJACENT[g->pos[p]] & g->masks[g->string];   /* S7 */
    if (g->status[p] == WAITING) return OUTER & g->marbles;                  /* S4 */
    return (ADJACENT[g->pos[p]] & g->marbles) | g->masks[g->colour[p]];      /* S5, S6 */
}

static void knock_out(Game *g, int p) {
    g->status[p] = OUT;
    g->pos[p] = -1;
}

/* S10, S11: the round's last stomper scores; a new round or the end. -1: no stomper left. */
static int end_round(Game *g) {
    int winner = -1;
    for (int p = 0; p < g->n && winner < 0; p++)
        if (g->status[p] == ON_BOARD) winner = p;
    if (winner < 0) return -1;
    int cats = __builtin_popcountll(g->masks[CATS_EYE]);
    int solids = __builtin_popcountll(g->marbles) - cats;
    g->scores[winner] += 3 + 3 * cats + solids;
    g->to_move = winner;
    g->string = -1;
    int best = g->scores[0];
    for (int p = 1; p < g->n; p++)
        if (g->scores[p] > best) best = g->scores[p];
    if (g->single || best >= g->target) {
        g->over = 1;
        return 0;
    }
    g->round++;
    memset(g->masks, 0, sizeof g->masks);
    g->marbles = 0;
    g->dealt = 0;
    g->drawn = 0;
    for (int p = 0; p < g->n; p++) {
        g->colour[p] = -1;
        g->pos[p] = -1;
        g->status[p] = WAITING;
    }
    return 0;
}

/* End p's turn: pass it clockwise, knocking out players who cannot stomp (S9). */
static int advance(Game *g, int p) {
    for (;;) {
        int waiting = 0, on_board = 0;
        for (int q = 0; q < g->n; q++) {
            waiting += g->status[q] == WAITING;
            on_board += g->status[q] == ON_BOARD;
        }
        if (!waiting && on_board <= 1) return end_round(g);
        p = (p + 1) % g->n;
        while (g->status[p] == OUT) p = (p + 1) % g->n;
        if (can_stomp(g, p)) {
            g->to_move = p;
            return 0;
        }
        knock_out(g, p);
    }
}

static int step(Game *g) {
    double r;
    if (draw_number(g->random, &r) < 0) return -1;
    if (g->dealt < HOLES) {  /* S1: the next hole gets a marble, by the marbles left */
        int left = HOLES - g->dealt, kind = -1;
        for (int k = 0; k < KINDS; k++) {
            int remaining = PER_KIND - __builtin_popcountll(g->masks[k]);
            if (remaining <= 0) continue;
            kind = k;
            r -= (double)remaining / (double)left;
            if (r < 0) break;
        }
        u64 bit = (u64)1 << g->dealt;
        g->masks[kind] |= bit;
        g->marbles |= bit;
        g->dealt++;
        return record(g->actions, kind);
    }
    if (g->drawn < g->n) {  /* S2: the next player draws a stomper colour not yet taken */
        int free[COLOURS], nfree = 0, colour = -1;
        for (int c = 0; c < COLOURS; c++) {
            int taken = 0;
            for (int p = 0; p < g->n; p++) taken |= g->colour[p] == c;
            if (!taken) free[nfree++] = c;
        }
        double share = 1.0 / (double)nfree;
        for (int i = 0; i < nfree; i++) {
            colour = free[i];
            r -= share;
            if (r < 0) break;
        }
        g->colour[g->drawn++] = colour;
        if (record(g->actions, colour) < 0) return -1;
        if (g->drawn == g->n && !can_stomp(g, g->to_move)) {
            knock_out(g, g->to_move);
            if (advance(g, g->to_move) < 0) return -2;
        }
        return 0;
    }
    /* a stomp (S4-S8), then the string goes on (S7) or the turn passes */
    u64 bits = legal_bits(g);
    int count = __builtin_popcountll(bits);
    long k = (long)(r * (double)count);
    for (long i = 0; i < k; i++) bits &= bits - 1;
    u64 bit = bits & (~bits + 1);
    int hole = __builtin_ctzll(bit), kind = 0, p = g->to_move;
    while (!(g->masks[kind] & bit)) kind++;
    g->masks[kind] ^= bit;
    g->marbles ^= bit;
    g->pos[p] = hole;
    g->status[p] = ON_BOARD;
    if (record(g->actions, hole) < 0) return -1;
    if (ADJACENT[hole] & g->masks[kind]) {
        g->string = kind;
        return 0;
    }
    g->string = -1;
    return advance(g, p) < 0 ? -2 : 0;
}

static PyObject *playout(PyObject *self, PyObject *args) {
    PyObject *masks, *colour, *pos, *status, *scores, *random;
    Game g;
    long budget;
    if (!PyArg_ParseTuple(args, "O!iiO!O!O!iiO!iiiiOl", &PyList_Type, &masks, &g.dealt,
                          &g.drawn, &PyList_Type, &colour, &PyList_Type, &pos, &PyList_Type,
                          &status, &g.to_move, &g.string, &PyList_Type, &scores, &g.round,
                          &g.over, &g.target, &g.single, &random, &budget))
        return NULL;
    g.n = (int)PyList_GET_SIZE(colour);
    if (g.n < 2 || g.n > MAX_PLAYERS || PyList_GET_SIZE(masks) != KINDS) {
        PyErr_SetString(PyExc_ValueError, "2-6 players and 7 marble kinds");
        return NULL;
    }
    g.marbles = 0;
    for (int k = 0; k < KINDS; k++) {
        g.masks[k] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(masks, k));
        if (PyErr_Occurred()) return NULL;
        g.marbles |= g.masks[k];
    }
    if (read_ints(colour, g.colour, g.n, "colours") < 0 || read_ints(pos, g.pos, g.n, "pos") < 0
        || read_ints(status, g.status, g.n, "status") < 0
        || read_ints(scores, g.scores, g.n, "scores") < 0)
        return NULL;
    g.random = random;
    g.actions = PyList_New(0);
    if (!g.actions) return NULL;
    long done = 0;
    while (done != budget && !g.over) {
        int rc = step(&g);
        if (rc == -2) PyErr_SetString(PyExc_RuntimeError, "every stomper was knocked out");
        if (rc < 0) {
            Py_DECREF(g.actions);
            return NULL;
        }
        done++;
    }
    PyObject *mask_list = PyList_New(KINDS);
    if (!mask_list) {
        Py_DECREF(g.actions);
        return NULL;
    }
    for (int k = 0; k < KINDS; k++)
        PyList_SET_ITEM(mask_list, k, PyLong_FromUnsignedLongLong(g.masks[k]));
    return Py_BuildValue("(NNiiNNNiiNii)", g.actions, mask_list, g.dealt, g.drawn,
                         ints(g.colour, g.n), ints(g.pos, g.n), ints(g.status, g.n), g.to_move,
                         g.string, ints(g.scores, g.n), g.round, g.over);
}

static PyMethodDef methods[] = {
    {"playout", playout, METH_VARARGS,
     "playout(masks, dealt, drawn, colours, pos, status, to_move, string, scores, round, over, "
     "target, single, random, budget) -> (actions, masks, dealt, drawn, colours, pos, status, "
     "to_move, string, scores, round, over)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_cplayout", "Compiled Stomple random playouts.", -1, methods,
};

PyMODINIT_FUNC PyInit__cplayout(void) {
    for (int h = 0; h < HOLES; h++) {
        int row = h / SIZE, col = h % SIZE;
        ADJACENT[h] = 0;
        for (int dr = -1; dr <= 1; dr++)
            for (int dc = -1; dc <= 1; dc++) {
                int r = row + dr, c = col + dc;
                if ((dr || dc) && r >= 0 && r < SIZE && c >= 0 && c < SIZE)
                    ADJACENT[h] |= (u64)1 << (r * SIZE + c);
            }
        if (row == 0 || row == SIZE - 1 || col == 0 || col == SIZE - 1) OUTER |= (u64)1 << h;
    }
    return PyModule_Create(&moduledef);
}

/*
 * The compiled Clobber search of the `hard` agent: UCT over bitboards with MCTS-Solver proofs.
 *
 * A position is two 64-bit bitboards (White, Black; bit i = square i = row * columns + col,
 * row 0 the top rank, as parlour's and OpenSpiel's action ids) and the colour to move; boards
 * of at most 64 squares. An action id is square * 4 + direction (N, E, S, W), ruling C4.
 *
 * Search: UCT (rewards 0/1 for the player who moved into a node), random playouts to the end
 * of the game, a node expanded (all its children at once, in random order) on its second
 * visit. Proven results are backed up as in MCTS-Solver (Winands, Bjornsson & Saito 2008): a
 * node with a child lost for the child's mover is won; a node whose children are all won for
 * their movers is lost; selection never enters a proven node and the search stops once the
 * root is proven. The tree is kept between calls and re-rooted at the new position when it is
 * a child or grandchild of the last root (our move, then the opponent's).
 *
 * The node pool is bounded (`max_nodes`): when it is full, leaves are no longer expanded (the
 * search goes on with playouts), and a new search starts a fresh tree when the pool is more
 * than half used. The search runs without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;

typedef struct {
    uint32_t first;   /* index of the first child; 0: not expanded */
    uint16_t nkids;
    uint8_t from, dir;
    int8_t proven;    /* for the player to move here: 1 won, -1 lost, 0 unknown */
    uint32_t visits;
    float wins;       /* playouts won by the player who moved into this node */
} Node;

typedef struct {
    PyObject_HEAD
    int rows, cols, n, cannibal;
    u64 full, not_first, not_last;
    double c;
    u64 rng;
    Node *pool;
    uint32_t cap, used, root;
    u64 root_w, root_b;
    int root_to_move, have_root;
    int busy;
    long long total_iterations;
} Search;

static inline u64 next_rand(Search *S) {
    u64 x = S->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    S->rng = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Squares from which `own` may move in each direction onto a target square. */
static inline void sources(const Search *S, u64 own, u64 opp, u64 src[4]) {
    u64 t = S->cannibal ? (own | opp) : opp;
    int c = S->cols;
    src[0] = own & (t << c);
    src[1] = own & (t >> 1) & S->not_last;
    src[2] = own & (t >> c);
    src[3] = own & (t << 1) & S->not_first;
}

static inline int delta(const Search *S, int dir) {
    switch (dir) {
    case 0: return -S->cols;
    case 1: return 1;
    case 2: return S->cols;
    default: return -1;
    }
}

/* Play from `from` in direction `dir` for the side owning `*own`. */
static inline void play(const Search *S, u64 *own, u64 *opp, int from, int dir) {
    int to = from + delta(S, dir);
    *own = (*own & ~(1ULL << from)) | (1ULL << to);
    *opp &= ~(1ULL << to);
}

/* A uniformly random playout; returns 1 when the player to move at its start wins. */
static int playout(Search *S, u64 own, u64 opp) {
    int mover_is_start = 1;
    for (;;) {
        u64 src[4];
        sources(S, own, opp, src);
        int cnt[4], total = 0;
        for (int d = 0; d < 4; d++) {
            cnt[d] = __builtin_popcountll(src[d]);
            total += cnt[d];
        }
        if (!total) return !mover_is_start; /* the side to move has no move: it loses */
        int r = (int)(next_rand(S) % (u64)total), d = 0;
        while (r >= cnt[d]) r -= cnt[d++];
        u64 bits = src[d];
        while (r--) bits &= bits - 1;
        play(S, &own, &opp, __builtin_ctzll(bits), d);
        u64 t = own;
        own = opp;
        opp = t;
        mover_is_start = !mover_is_start;
    }
}

/* Create the children of node `i` (position own/opp, own to move); returns -1 when full. */
static int expand(Search *S, uint32_t i, u64 own, u64 opp) {
    u64 src[4];
    sources(S, own, opp, src);
    int total = 0;
    for (int d = 0; d < 4; d++) total += __builtin_popcountll(src[d]);
    if (S->used + (uint32_t)total > S->cap) return -1;
    uint32_t first = S->used;
    int k = 0;
    for (int d = 0; d < 4; d++) {
        u64 bits = src[d];
        while (bits) {
            Node *c = &S->pool[first + k++];
            memset(c, 0, sizeof(Node));
            c->from = (uint8_t)__builtin_ctzll(bits);
            c->dir = (uint8_t)d;
            bits &= bits - 1;
        }
    }
    for (int j = total - 1; j > 0; j--) { /* random order: ties go to whichever comes first */
        int m = (int)(next_rand(S) % (u64)(j + 1));
        Node t = S->pool[first + j];
        S->pool[first + j] = S->pool[first + m];
        S->pool[first + m] = t;
    }
    S->used += (uint32_t)total;
    S->pool[i].first = total ? first : 0;
    S->pool[i].nkids = (uint16_t)total;
    if (!total) S->pool[i].proven = -1;
    return 0;
}

/* The proven value of an expanded node from its children, or 0. */
static int proven_from_kids(const Search *S, const Node *x) {
    if (!x->first) return 0;
    int all_won = 1;
    for (int k = 0; k < x->nkids; k++) {
        int p = S->pool[x->first + k].proven;
        if (p == -1) return 1;
        if (p != 1) all_won = 0;
    }
    return all_won ? -1 : 0;
}

#define MAX_DEPTH 130

static void iterate(Search *S) {
    uint32_t path[MAX_DEPTH];
    int depth = 0;
    uint32_t i = S->root;
    u64 own = S->root_to_move == 0 ? S->root_w : S->root_b;
    u64 opp = S->root_to_move == 0 ? S->root_b : S->root_w;
    path[depth++] = i;
    int mover_wins; /* for the player to move at the last node of the path */
    for (;;) {
        Node *x = &S->pool[i];
        if (x->proven) {
            mover_wins = x->proven > 0;
            break;
        }
        if (!x->first) {
            if ((x->visits >= 1 || i == S->root) && expand(S, i, own, opp) == 0) {
                x = &S->pool[i];
                if (x->proven) { /* no move: lost */
                    mover_wins = 0;
                    break;
                }
            } else {
                mover_wins = playout(S, own, opp);
                break;
            }
        }
        /* UCT among the children not yet proven */
        double logn = log((double)x->visits + 1.0);
        double best = -1.0;
        uint32_t pick = 0;
        for (int k = 0; k < x->nkids; k++) {
            uint32_t ci = x->first + (uint32_t)k;
            const Node *c = &S->pool[ci];
            if (c->proven) continue; /* won for the child's mover: never chosen */
            double v;
            if (!c->visits)
                v = 1e9;
            else
                v = c->wins / c->visits + S->c * sqrt(logn / c->visits);
            if (v > best) {
                best = v;
                pick = ci;
            }
        }
        if (!pick) { /* cannot happen for an unproven expanded node; be safe */
            mover_wins = playout(S, own, opp);
            break;
        }
        Node *c = &S->pool[pick];
        play(S, &own, &opp, c->from, c->dir);
        u64 t = own;
        own = opp;
        opp = t;
        i = pick;
        if (depth >= MAX_DEPTH) {
            mover_wins = playout(S, own, opp);
            break;
        }
        path[depth++] = i;
    }
    /* back up: the last node's mover won iff mover_wins; alternate going up */
    int changed = 1;
    for (int d = depth - 1; d >= 0; d--) {
        Node *x = &S->pool[path[d]];
        x->visits++;
        /* the player who moved into x is the opponent of x's mover */
        if (!mover_wins) x->wins += 1.0f;
        if (changed && !x->proven && x->first) {
            int p = proven_from_kids(S, x);
            if (p) x->proven = (int8_t)p;
            else changed = 0;
        } else if (!x->proven) {
            changed = 0;
        }
        mover_wins = !mover_wins;
    }
}

static void reset_tree(Search *S, u64 w, u64 b, int to_move) {
    S->used = 1; /* index 0 means "no child" */
    S->root = S->used++;
    memset(&S->pool[S->root], 0, sizeof(Node));
    S->root_w = w;
    S->root_b = b;
    S->root_to_move = to_move;
    S->have_root = 1;
}

/* Re-root at (w, b, to_move) when it is a child or grandchild of the current root. */
static int reroot(Search *S, u64 w, u64 b, int to_move) {
    if (!S->have_root || S->used * 2 > S->cap) return 0;
    if (S->root_w == w && S->root_b == b && S->root_to_move == to_move) return 1;
    const Node *r = &S->pool[S->root];
    if (!r->first) return 0;
    for (int k = 0; k < r->nkids; k++) {
        uint32_t ci = r->first + (uint32_t)k;
        const Node *c = &S->pool[ci];
        u64 cw = S->root_w, cb = S->root_b;
        if (S->root_to_move == 0) play(S, &cw, &cb, c->from, c->dir);
        else play(S, &cb, &cw, c->from, c->dir);
        int ctm = 1 - S->root_to_move;
        if (cw == w && cb == b && ctm == to_move) {
            S->root = ci;
            S->root_w = w;
            S->root_b = b;
            S->root_to_move = to_move;
            return 1;
        }
        if (!c->first) continue;
        for (int j = 0; j < c->nkids; j++) {
            uint32_t gi = c->first + (uint32_t)j;
            const Node *g = &S->pool[gi];
            u64 gw = cw, gb = cb;
            if (ctm == 0) play(S, &gw, &gb, g->from, g->dir);
            else play(S, &gb, &gw, g->from, g->dir);
            if (gw == w && gb == b && 1 - ctm == to_move) {
                S->root = gi;
                S->root_w = w;
                S->root_b = b;
                S->root_to_move = to_move;
                return 1;
            }
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- Python type */
static void Search_dealloc(Search *S) {
    free(S->pool);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static int Search_init(Search *S, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"rows", "columns", "seed", "c", "max_nodes", "cannibal", NULL};
    int rows, cols, cannibal = 0;
    unsigned long long seed = 0;
    double c = 0.4;
    unsigned int max_nodes = 1u << 22;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ii|KdIp", kwlist, &rows, &cols, &seed, &c,
                                     &max_nodes, &cannibal))
        return -1;
    if (rows < 1 || cols < 1 || rows * cols > 64) {
        PyErr_SetString(PyExc_ValueError, "the compiled search plays boards of at most 64 squares");
        return -1;
    }
    if (max_nodes < 1024 || max_nodes > (1u << 28)) {
        PyErr_SetString(PyExc_ValueError, "max_nodes must be between 1024 and 2**28");
        return -1;
    }
    S->rows = rows;
    S->cols = cols;
    S->n = rows * cols;
    S->cannibal = cannibal;
    S->full = S->n >= 64 ? ~0ULL : ((1ULL << S->n) - 1);
    u64 first = 0;
    for (int r = 0; r < rows; r++) first |= 1ULL << (r * cols);
    S->not_first = S->full & ~first;
    S->not_last = S->full & ~(first << (cols - 1));
    S->c = c;
    S->rng = (seed + 0x9e3779b97f4a7c15ULL) * 0xbf58476d1ce4e5b9ULL;
    if (!S->rng) S->rng = 1;
    free(S->pool);
    S->pool = malloc(sizeof(Node) * (size_t)max_nodes);
    if (!S->pool) {
        PyErr_NoMemory();
        return -1;
    }
    S->cap = max_nodes;
    S->have_root = 0;
    S->busy = 0;
    return 0;
}

static int action_of(const Node *c) { return c->from * 4 + c->dir; }

static PyObject *Search_search(Search *S, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"white", "black", "to_move", "time_limit", "iterations", "avoid",
                             "reuse", NULL};
    unsigned long long w, b;
    int to_move, reuse = 1;
    double limit = 0;
    long long max_it = 0;
    PyObject *avoid = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "KKi|dLOp", kwlist, &w, &b, &to_move, &limit,
                                     &max_it, &avoid, &reuse))
        return NULL;
    if ((w & b) || ((w | b) & ~S->full) || (to_move != 0 && to_move != 1)) {
        PyErr_SetString(PyExc_ValueError, "bad position for this board");
        return NULL;
    }
    if (limit <= 0 && max_it <= 0) {
        PyErr_SetString(PyExc_ValueError, "give a time_limit or a number of iterations");
        return NULL;
    }
    if (S->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this search is already running");
        return NULL;
    }
    if (!(reuse && reroot(S, w, b, to_move))) reset_tree(S, w, b, to_move);
    Node *root = &S->pool[S->root];
    if (!root->first) {
        u64 own = to_move == 0 ? w : b, opp = to_move == 0 ? b : w;
        if (expand(S, S->root, own, opp) < 0) {
            reset_tree(S, w, b, to_move);
            expand(S, S->root, own, opp);
        }
        root = &S->pool[S->root];
    }
    if (!root->nkids) {
        PyErr_SetString(PyExc_ValueError, "the side to move has no move: the game is over");
        return NULL;
    }
    /* moves known lost (proved by the caller): marked won for the opponent */
    if (avoid != Py_None) {
        PyObject *fast = PySequence_Fast(avoid, "avoid must be a sequence of actions");
        if (!fast) return NULL;
        Py_ssize_t na = PySequence_Fast_GET_SIZE(fast);
        for (Py_ssize_t j = 0; j < na; j++) {
            long a = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, j));
            if (a == -1 && PyErr_Occurred()) {
                Py_DECREF(fast);
                return NULL;
            }
            for (int k = 0; k < root->nkids; k++)
                if (action_of(&S->pool[root->first + k]) == a) S->pool[root->first + k].proven = 1;
        }
        Py_DECREF(fast);
        if (!root->proven) root->proven = (int8_t)proven_from_kids(S, root);
    }
    S->busy = 1;
    long long it = 0;
    double started = now_seconds(), deadline = started + limit;
    Py_BEGIN_ALLOW_THREADS
    while (!S->pool[S->root].proven) {
        if (max_it > 0 && it >= max_it) break;
        if (limit > 0 && (it & 15) == 0 && now_seconds() >= deadline) break;
        iterate(S);
        it++;
    }
    Py_END_ALLOW_THREADS
    S->busy = 0;
    S->total_iterations += it;
    double seconds = now_seconds() - started;
    root = &S->pool[S->root];
    /* the move: a proven win; else the most visited move not proven lost; else the most
       visited (a lost position: the move the search found hardest to refute) */
    int best = -1;
    for (int pass = 0; pass < 3 && best < 0; pass++) {
        uint32_t most = 0;
        for (int k = 0; k < root->nkids; k++) {
            const Node *c = &S->pool[root->first + k];
            if (pass == 0 && c->proven != -1) continue;
            if (pass == 1 && c->proven == 1) continue;
            if (best < 0 || c->visits > most) {
                most = c->visits;
                best = k;
            }
        }
    }
    PyObject *kids = PyList_New(root->nkids);
    if (!kids) return NULL;
    for (int k = 0; k < root->nkids; k++) {
        const Node *c = &S->pool[root->first + k];
        /* proven for the mover at the root: a child lost for its mover is a winning move */
        PyObject *t = Py_BuildValue("(iIdi)", action_of(c), c->visits, (double)c->wins,
                                    -(int)c->proven);
        if (!t) {
            Py_DECREF(kids);
            return NULL;
        }
        PyList_SET_ITEM(kids, k, t);
    }
    return Py_BuildValue("{sisLsdsisIsN}", "action", action_of(&S->pool[root->first + best]),
                         "iterations", it, "seconds", seconds, "proven", (int)root->proven,
                         "nodes", S->used, "children", kids);
}

static PyObject *Search_playouts(Search *S, PyObject *args) {
    /* n random playouts from a position; returns the wins of the side to move (tests, bench) */
    unsigned long long w, b;
    int to_move;
    long long n;
    if (!PyArg_ParseTuple(args, "KKiL", &w, &b, &to_move, &n)) return NULL;
    if ((w & b) || ((w | b) & ~S->full)) {
        PyErr_SetString(PyExc_ValueError, "bad position for this board");
        return NULL;
    }
    long long wins = 0;
    u64 own = to_move == 0 ? w : b, opp = to_move == 0 ? b : w;
    Py_BEGIN_ALLOW_THREADS
    for (long long k = 0; k < n; k++) wins += playout(S, own, opp);
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(wins);
}

static PyObject *Search_clear(Search *S, PyObject *Py_UNUSED(ignored)) {
    S->have_root = 0;
    Py_RETURN_NONE;
}

static PyMethodDef Search_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Search_search, METH_VARARGS | METH_KEYWORDS,
     "search(white, black, to_move, time_limit=0, iterations=0, avoid=None, reuse=True) -> dict"},
    {"playouts", (PyCFunction)Search_playouts, METH_VARARGS,
     "playouts(white, black, to_move, n) -> playouts won by the side to move"},
    {"clear", (PyCFunction)Search_clear, METH_NOARGS, "Forget the search tree."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "parlour.agents._cclobber_search.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "UCT with MCTS-Solver proofs over Clobber bitboards (boards of <= 64 squares).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_cclobber_search", "Compiled Clobber MCTS.", -1, NULL,
};

PyMODINIT_FUNC PyInit__cclobber_search(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

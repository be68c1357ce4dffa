/*
 * GobbleStones random playouts, compiled: the rules of turns.py, chance.py, legal.py and
 * plays.py (B3-B7, normal game), step for step, for GobbleStonesState.random_playout.
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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parlour_playout.h"  /* read_ints, ints, draw_number, record */

#define SIZE 15
#define SQUARES 225
#define COLOURS 5
#define MAX_PLAY 5
#define RACK_DRAW 5
#define MAX_PLAYERS 4
#define PASS_ACTION 225
#define END_ACTION 226

enum { DEAL = 0, PLAY = 1, DRAW = 2, END = 3, CHALLENGE = 4 };
enum { NO_END = 0, END_BAG = 1, END_NO_TILES = 2, END_PASSES = 3, END_MAX_TURNS = 4 };

typedef struct {
    int n;
    unsigned char colour[SQUARES], value[SQUARES];
    signed char tile[SQUARES];  /* tile colour, -1 for an empty square */
    int covered;                /* squares covered */
    int racks[MAX_PLAYERS][COLOURS], bag[COLOURS], points[MAX_PLAYERS];
    int phase, turn, drawer, to_draw, passes, turns, max_turns, end;
    int pending[MAX_PLAY], npending;
    int pcolour[MAX_PLAY];      /* the pending tiles' colours (B9: not always their squares') */
    int bluff, decider;         /* the bluffing variant (search only; playouts are normal) */
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
    for (int i = 0; i < g->npending; i++) rack[g->pcolour[i]]++;
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
            ok[s] = (g->bluff || rack[g->colour[s]] > 0) && !completes_block(cv, r, c);
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
            int left[COLOURS];  /* B4: each tile matches its square (not in the bluff, B9) */
            memcpy(left, rack, sizeof left);
            if (!g->bluff) left[g->colour[s]]--;
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
                if (!g->bluff) {
                    if (!left[g->colour[t]]) break;
                    left[g->colour[t]]--;
                }
                touch |= target[t];
                if (touch) bits |= 1 << k;
            }
            g->lengths[d][s] = (unsigned char)bits;
        }
    }
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

static void after_play(Game *g, int placed, int draw) {
    int bag = bag_total(g);
    g->passes = (placed == 0 && bag == 0) ? g->passes + 1 : 0;
    g->turns++;
    g->npending = 0;
    g->decider = -1;
    g->fresh = 0;
    int player = g->turn, need = draw ? RACK_DRAW - placed : 0;
    int count = need < bag ? need : bag;
    if (bag < need && rack_empty(g, player)) finish(g, END_BAG);  /* B7 */
    else if (g->passes >= g->n) finish(g, END_PASSES);             /* B7 */
    else if (count > 0) {
        g->phase = DRAW;
        g->drawer = player;
        g->to_draw = count;
    } else begin_turn(g, (player + 1) % g->n);
}

static void commit(Game *g, int challenger) {
    int earned = 0;
    for (int i = 0; i < g->npending; i++) {
        int s = g->pending[i];
        g->tile[s] = (signed char)g->pcolour[i];
        g->covered++;
        earned += g->value[s];
    }
    g->points[g->turn] += earned;
    if (challenger >= 0) g->points[challenger] -= earned;  /* B9: a wrong challenge */
    after_play(g, g->npending, 1);
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
    if (draw_number(g->random, &r) < 0) return -1;
    long total = count + (g->npending ? can_end : 1);
    long k = (long)(r * (double)total);
    if (k < count) {
        int s = squares[k];
        g->racks[g->turn][g->colour[s]]--;
        g->pcolour[g->npending] = g->colour[s];
        g->pending[g->npending++] = s;
        return record(g->actions, s);
    }
    if (g->npending) {
        commit(g, -1);
        return record(g->actions, END_ACTION);
    }
    after_play(g, 0, 1);
    return record(g->actions, PASS_ACTION);
}

/* One tile drawn from the bag (chance, by the colours left). */
static int draw_step(Game *g) {
    double r;
    int total = bag_total(g), colour = -1;
    if (draw_number(g->random, &r) < 0) return -1;
    for (int c = 0; c < COLOURS; c++) {
        if (!g->bag[c]) continue;
        colour = c;
        r -= (double)g->bag[c] / (double)total;
        if (r < 0) break;
    }
    g->bag[colour]--;
    g->racks[g->drawer][colour]++;
    if (record(g->actions, colour) < 0) return -1;
    if (--g->to_draw) return 0;
    if (g->phase == DEAL) next_drawer(g);
    else {
        g->drawer = -1;
        begin_turn(g, (g->turn + 1) % g->n);
    }
    return 0;
}

/* The state's fields (as compiled.py hands them over) into g; g's phase, turn, drawer,
 * to_draw, passes, turns and max_turns are already read. Releases board. */
static int load_game(Game *g, Py_buffer *board, PyObject *tiles, PyObject *racks, PyObject *bag,
                     PyObject *points, PyObject *pending, PyObject *colours) {
    if (board->len != 2 * SQUARES) {
        PyBuffer_Release(board);
        PyErr_SetString(PyExc_ValueError, "board: 225 colours then 225 values");
        return -1;
    }
    memcpy(g->colour, board->buf, SQUARES);
    memcpy(g->value, (const char *)board->buf + SQUARES, SQUARES);
    PyBuffer_Release(board);
    g->n = (int)PyList_GET_SIZE(racks);
    g->npending = (int)PyList_GET_SIZE(pending);
    if (g->n < 2 || g->n > MAX_PLAYERS || g->npending > MAX_PLAY) {
        PyErr_SetString(PyExc_ValueError, "2-4 racks and at most 5 pending tiles");
        return -1;
    }
    int tile[SQUARES];
    if (read_ints(tiles, tile, SQUARES, "tiles") < 0 || read_ints(bag, g->bag, COLOURS, "bag") < 0
        || read_ints(points, g->points, g->n, "points") < 0
        || read_ints(pending, g->pending, g->npending, "pending") < 0)
        return -1;
    if (colours) {
        if (read_ints(colours, g->pcolour, g->npending, "pending colours") < 0) return -1;
    } else
        for (int i = 0; i < g->npending; i++) g->pcolour[i] = g->colour[g->pending[i]];
    g->bluff = 0;
    g->decider = -1;
    g->covered = 0;
    for (int s = 0; s < SQUARES; s++) {
        g->tile[s] = (signed char)tile[s];
        g->covered += tile[s] >= 0;
    }
    for (int p = 0; p < g->n; p++)
        if (read_ints(PyList_GET_ITEM(racks, p), g->racks[p], COLOURS, "rack") < 0) return -1;
    g->end = NO_END;
    g->fresh = 0;
    return 0;
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
    if (load_game(&g, &board, tiles, racks, bag, points, pending, NULL) < 0) return NULL;
    int tile[SQUARES];
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
    /* the fields in the order they came (compiled.py: fields.COMPILED), then what follows
     * from them */
    return Py_BuildValue("(NNNNNiiiiiiy#iN)", g.actions, ints(tile, SQUARES), rack_list,
                         ints(g.bag, COLOURS), ints(g.points, g.n), g.phase, g.turn, g.drawer,
                         g.to_draw, g.passes, g.turns, occ, (Py_ssize_t)sizeof occ, g.end,
                         ints(g.pending, g.npending));
}

/* ------------------------------------------------- information-set search (mcts.py, compiled) */
/*
 * MCTSAgent._iterate_information_set, step for step, on worlds held here: the same tree (per
 * node, children's statistics in flat arrays; chance the searcher cannot see merged into one
 * branch), the same random() calls in the same order, the same floating-point operations, so
 * that it chooses exactly what the Python loop chooses (the tests compare them). Leaves are
 * judged as MCTSAgent._leaf does with no playout policy: a random playout of `depth` actions
 * (none for depth 0), then the returns at the end or the lead evaluation of
 * agents/knowledge/gobblestones.py (its scale handed in) before it.
 */
#define CHANCE_PLAYER (-1)
#define TERMINAL_PLAYER (-4)
#define MAX_LEGAL (COLOURS * SQUARES + 4)
/* The bluffing variant's actions (B9): colour * 225 + square places a tile face down. */
#define B_PASS (COLOURS * SQUARES)
#define B_END (B_PASS + 1)
#define B_CHALLENGE (B_PASS + 2)
#define B_TRUST (B_PASS + 3)

typedef struct {
    int visits, merged;          /* merged: -1 not yet known, else 0 / 1 */
    int nact, cap;
    int *act, *n, *avail, *kid;  /* per child: action, visits, availability, node */
    double *w;
    int chance[COLOURS + 1];     /* chance children by colour drawn; [COLOURS]: merged */
} Node;

typedef struct {
    int me, depth, count_laid, bluff;
    double c, scale;
    Node *nodes;
    int nnodes, capnodes;
    Game *worlds;
    int nworlds, capworlds;
    int *path;                   /* (node, child index, player) triples */
    int cappath;
} Search;

static void search_free(PyObject *capsule) {
    Search *S = PyCapsule_GetPointer(capsule, "gobblestones.search");
    if (!S) return;
    for (int i = 0; i < S->nnodes; i++) {
        Node *nd = &S->nodes[i];
        free(nd->act); free(nd->n); free(nd->avail); free(nd->kid); free(nd->w);
    }
    free(S->nodes);
    free(S->worlds);
    free(S->path);
    free(S);
}

static int new_node(Search *S) {
    if (S->nnodes == S->capnodes) {
        int cap = S->capnodes ? 2 * S->capnodes : 1024;
        Node *nodes = realloc(S->nodes, (size_t)cap * sizeof(Node));
        if (!nodes) return -1;
        S->nodes = nodes;
        S->capnodes = cap;
    }
    Node *nd = &S->nodes[S->nnodes];
    memset(nd, 0, sizeof *nd);
    nd->merged = -1;
    for (int k = 0; k <= COLOURS; k++) nd->chance[k] = -1;
    return S->nnodes++;
}

/* A new child of node `at` for `action` (its statistics 0, availability 1); its index. */
static int add_child(Search *S, int at, int action) {
    int kid = new_node(S);
    if (kid < 0) return -1;
    Node *nd = &S->nodes[at];
    if (nd->nact == nd->cap) {
        int cap = nd->cap ? 2 * nd->cap : 8;
        int *act = realloc(nd->act, (size_t)cap * sizeof(int));
        if (act) nd->act = act;
        int *n = realloc(nd->n, (size_t)cap * sizeof(int));
        if (n) nd->n = n;
        int *avail = realloc(nd->avail, (size_t)cap * sizeof(int));
        if (avail) nd->avail = avail;
        int *k = realloc(nd->kid, (size_t)cap * sizeof(int));
        if (k) nd->kid = k;
        double *w = realloc(nd->w, (size_t)cap * sizeof(double));
        if (w) nd->w = w;
        if (!act || !n || !avail || !k || !w) return -1;
        nd->cap = cap;
    }
    int i = nd->nact++;
    nd->act[i] = action;
    nd->n[i] = 0;
    nd->w[i] = 0.0;
    nd->avail[i] = 1;
    nd->kid[i] = kid;
    return i;
}

static int current(const Game *g) {
    if (g->phase == PLAY) return g->turn;
    if (g->phase == CHALLENGE) return g->decider;
    if (g->phase == END) return TERMINAL_PLAYER;
    return CHANCE_PLAYER;
}

/* GobbleStonesState._legal_actions, ascending. */
static int legal_actions(Game *g, int *out) {
    int count = 0, squares[SQUARES], n = 0, can_end = 0;
    if (g->phase == CHALLENGE) {
        out[0] = B_CHALLENGE;
        out[1] = B_TRUST;
        return 2;
    }
    if (!g->fresh) turn_plays(g);
    if (g->npending == 0) {
        for (int s = 0; s < SQUARES; s++)
            if (g->single[s] || g->lengths[0][s] || g->lengths[1][s]) squares[n++] = s;
    } else {
        int p0 = g->pending[0], k = g->npending;
        if (k == 1) {
            if (g->lengths[0][p0]) squares[n++] = p0 + 1;
            if (g->lengths[1][p0]) squares[n++] = p0 + SIZE;
            can_end = g->single[p0];
        } else {
            int d = g->pending[1] - p0 == 1 ? 0 : 1;
            int bits = g->lengths[d][p0];
            if (bits >> (k + 1)) squares[n++] = g->pending[k - 1] + (d ? SIZE : 1);
            can_end = (bits >> k) & 1;
        }
    }
    if (g->bluff) {  /* B9: any tile of the rack, face down, on each square */
        for (int c = 0; c < COLOURS; c++)
            if (g->racks[g->turn][c])
                for (int i = 0; i < n; i++) out[count++] = c * SQUARES + squares[i];
    } else
        for (int i = 0; i < n; i++) out[count++] = squares[i];
    if (g->npending == 0) out[count++] = g->bluff ? B_PASS : PASS_ACTION;
    else if (can_end) out[count++] = g->bluff ? B_END : END_ACTION;
    return count;
}

/* GobbleStonesState._apply_decision (B9): trust passes the decision on, and once every other
 * player trusted the play stands; the first to challenge turns the tiles up. */
static void decide(Game *g, int challenge) {
    if (!challenge) {
        g->decider = (g->decider + 1) % g->n;
        if (g->decider == g->turn) commit(g, -1);
        return;
    }
    int correct = 1;
    for (int i = 0; i < g->npending; i++) correct &= g->colour[g->pending[i]] == g->pcolour[i];
    if (correct) {
        commit(g, g->decider);
        return;
    }
    for (int i = 0; i < g->npending; i++) g->racks[g->turn][g->pcolour[i]]++;
    after_play(g, 0, 0);  /* a wrong play goes back to the rack, unscored, with no draw */
}

static void apply_player(Game *g, int action) {
    if (g->phase == CHALLENGE) decide(g, action == B_CHALLENGE);
    else if (!g->bluff) {
        if (action == PASS_ACTION) after_play(g, 0, 1);
        else if (action == END_ACTION) commit(g, -1);
        else {
            g->racks[g->turn][g->colour[action]]--;
            g->pcolour[g->npending] = g->colour[action];
            g->pending[g->npending++] = action;
        }
    } else if (action == B_PASS) after_play(g, 0, 1);
    else if (action == B_END) {
        g->phase = CHALLENGE;
        g->decider = (g->turn + 1) % g->n;
    } else {
        int colour = action / SQUARES, square = action % SQUARES;
        g->racks[g->turn][colour]--;
        g->pcolour[g->npending] = colour;
        g->pending[g->npending++] = square;
    }
}

/* pick_chance_outcome over the bag's colours, then the draw (_apply_chance). */
static int chance_step(Game *g, double r) {
    int total = bag_total(g), colour = -1, last = -1;
    for (int c = 0; c < COLOURS; c++) {
        if (!g->bag[c]) continue;
        last = c;
        r -= (double)g->bag[c] / (double)total;
        if (r < 0) {
            colour = c;
            break;
        }
    }
    if (colour < 0) colour = last;
    g->bag[colour]--;
    g->racks[g->drawer][colour]++;
    if (--g->to_draw == 0) {
        if (g->phase == DEAL) next_drawer(g);
        else {
            g->drawer = -1;
            begin_turn(g, (g->turn + 1) % g->n);
        }
    }
    return colour;
}

/* GobbleStonesState.chance_seen_by */
static int seen_by(const Game *g, int player) {
    int colours = 0;
    for (int c = 0; c < COLOURS; c++) colours += g->bag[c] > 0;
    return g->drawer == player || colours < 2;
}

/* GobbleStonesState.returns at the end (G-4, B8). */
static void end_returns(const Game *g, double *out) {
    double scores[MAX_PLAYERS], best = -1e300;
    for (int p = 0; p < g->n; p++) {
        int tiles = 0;
        for (int c = 0; c < COLOURS; c++) tiles += g->racks[p][c];
        scores[p] = (double)(g->points[p] + tiles);
        if (scores[p] > best) best = scores[p];
    }
    for (int p = 0; p < g->n; p++) out[p] = scores[p] == best ? 1.0 : -1.0;
}

/* agents/knowledge/gobblestones.lead, for a state that is not over. */
static void lead(const Search *S, const Game *g, double *out) {
    double points[MAX_PLAYERS];
    for (int p = 0; p < g->n; p++) {
        int tiles = 0;
        for (int c = 0; c < COLOURS; c++) tiles += g->racks[p][c];
        points[p] = (double)g->points[p] + (double)tiles;
    }
    if (g->phase == PLAY && g->npending && S->count_laid) {
        int laid = 0;
        for (int i = 0; i < g->npending; i++) laid += g->value[g->pending[i]];
        points[g->turn] += (double)laid;
    }
    for (int p = 0; p < g->n; p++) {
        double best = -1e300;
        for (int q = 0; q < g->n; q++)
            if (q != p && points[q] > best) best = points[q];
        out[p] = tanh((points[p] - best) / S->scale);
    }
}

/* MCTSAgent._leaf without a playout policy. */
static int leaf(const Search *S, Game *g, double *out) {
    for (long done = 0; done != S->depth && g->phase != END; done++) {
        int rc = g->phase == PLAY ? play_step(g) : draw_step(g);
        if (rc < 0) return -1;
    }
    if (g->phase == END) end_returns(g, out);
    else lead(S, g, out);
    return 0;
}

static int push(Search *S, int *np, int node, int i, int player) {
    if (*np + 3 > S->cappath) {
        int cap = S->cappath ? 2 * S->cappath : 768;
        int *path = realloc(S->path, (size_t)cap * sizeof(int));
        if (!path) return -1;
        S->path = path;
        S->cappath = cap;
    }
    S->path[(*np)++] = node;
    S->path[(*np)++] = i;
    S->path[(*np)++] = player;
    return 0;
}

/* One iteration on a copy of world `k`; -1 on a Python error, -2 out of memory. */
static int iterate(Search *S, int k, PyObject *random) {
    Game g = S->worlds[k];
    g.random = random;
    g.actions = NULL;
    int node = 0, np = 0, legal[MAX_LEGAL], index[MAX_LEGAL], untried[MAX_LEGAL];
    double returns[MAX_PLAYERS], r;
    for (;;) {
        int player = current(&g);
        if (player == TERMINAL_PLAYER) {
            end_returns(&g, returns);
            break;
        }
        if (player == CHANCE_PLAYER) {
            if (S->nodes[node].merged < 0) S->nodes[node].merged = !seen_by(&g, S->me);
            if (draw_number(g.random, &r) < 0) return -1;
            int colour = chance_step(&g, r);
            int key = S->nodes[node].merged ? COLOURS : colour;
            int child = S->nodes[node].chance[key];
            S->nodes[node].visits++;
            if (child < 0) {
                child = new_node(S);
                if (child < 0) return -2;
                S->nodes[node].chance[key] = child;
                if (leaf(S, &g, returns) < 0) return -1;
                break;
            }
            node = child;
            continue;
        }
        int count = legal_actions(&g, legal), nu = 0;
        if (count == 0) {  /* never in a sound world (B4: a started play can be finished) */
            PyErr_SetString(PyExc_RuntimeError, "gobblestones search: no legal action");
            return -1;
        }
        Node *nd = &S->nodes[node];
        for (int j = 0; j < count; j++) {
            int i = -1;
            for (int t = 0; t < nd->nact; t++)
                if (nd->act[t] == legal[j]) {
                    i = t;
                    break;
                }
            index[j] = i;
            if (i < 0) untried[nu++] = legal[j];
        }
        if (nu) {
            if (draw_number(g.random, &r) < 0) return -1;
            if (!(r >= 0.0 && r < 1.0)) {
                PyErr_SetString(PyExc_ValueError, "random() must give a number in [0, 1)");
                return -1;
            }
            int action = untried[(long)(r * (double)nu)];
            int i = add_child(S, node, action);
            if (i < 0) return -2;
            apply_player(&g, action);
            if (push(S, &np, node, i, player) < 0) return -2;
            if (leaf(S, &g, returns) < 0) return -1;
            break;
        }
        int best_i = 0;
        double best_v = -INFINITY, c = S->c;
        for (int j = 0; j < count; j++) {
            int i = index[j];
            nd->avail[i]++;
            double v = nd->w[i] / (double)nd->n[i]
                + c * sqrt(log((double)nd->avail[i]) / (double)nd->n[i]);
            if (v > best_v) {
                best_i = i;
                best_v = v;
            }
        }
        apply_player(&g, nd->act[best_i]);
        if (push(S, &np, node, best_i, player) < 0) return -2;
        node = nd->kid[best_i];
    }
    for (int t = 0; t < np; t += 3) {
        Node *parent = &S->nodes[S->path[t]];
        int i = S->path[t + 1];
        parent->visits++;
        parent->n[i]++;
        parent->w[i] += returns[S->path[t + 2]];
    }
    return 0;
}

static Search *get_search(PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, "gobblestones.search");
}

/* search_new(observer, c, depth, scale, count_laid, bluff) -> a search with its root. */
static PyObject *search_new(PyObject *self, PyObject *args) {
    int me, depth, count_laid, bluff;
    double c, scale;
    if (!PyArg_ParseTuple(args, "ididpp", &me, &c, &depth, &scale, &count_laid, &bluff))
        return NULL;
    if (bluff && depth != 0) {  /* the compiled playouts are the normal game's */
        PyErr_SetString(PyExc_ValueError, "bluffing variant: leaves without a playout only");
        return NULL;
    }
    Search *S = calloc(1, sizeof(Search));
    if (!S) return PyErr_NoMemory();
    S->me = me;
    S->c = c;
    S->depth = depth;
    S->scale = scale;
    S->count_laid = count_laid;
    S->bluff = bluff;
    PyObject *capsule = PyCapsule_New(S, "gobblestones.search", search_free);
    if (!capsule) {
        free(S);
        return NULL;
    }
    if (new_node(S) < 0) {
        Py_DECREF(capsule);
        return PyErr_NoMemory();
    }
    return capsule;
}

/* search_add_world(search, <playout's state fields>, pending colours, decider) -> the world's
 * number. */
static PyObject *search_add_world(PyObject *self, PyObject *args) {
    PyObject *capsule, *tiles, *racks, *bag, *points, *pending, *colours;
    Py_buffer board;
    Game g;
    int decider;
    if (!PyArg_ParseTuple(args, "Oy*O!O!O!O!iiiiiiiO!O!i", &capsule, &board, &PyList_Type,
                          &tiles, &PyList_Type, &racks, &PyList_Type, &bag, &PyList_Type,
                          &points, &g.phase, &g.turn, &g.drawer, &g.to_draw, &g.passes,
                          &g.turns, &g.max_turns, &PyList_Type, &pending, &PyList_Type,
                          &colours, &decider))
        return NULL;
    Search *S = get_search(capsule);
    if (!S) {
        PyBuffer_Release(&board);
        return NULL;
    }
    if (PyList_GET_SIZE(colours) != PyList_GET_SIZE(pending)) {
        PyBuffer_Release(&board);
        PyErr_SetString(PyExc_ValueError, "one colour per pending square");
        return NULL;
    }
    if (load_game(&g, &board, tiles, racks, bag, points, pending, colours) < 0) return NULL;
    if (g.phase < DEAL || g.phase > CHALLENGE) {
        PyErr_SetString(PyExc_ValueError, "bad phase");
        return NULL;
    }
    g.bluff = S->bluff;
    g.decider = decider;
    if (g.phase == PLAY) turn_plays(&g);
    g.random = NULL;
    g.actions = NULL;
    if (S->nworlds == S->capworlds) {
        int cap = S->capworlds ? 2 * S->capworlds : 64;
        Game *worlds = realloc(S->worlds, (size_t)cap * sizeof(Game));
        if (!worlds) return PyErr_NoMemory();
        S->worlds = worlds;
        S->capworlds = cap;
    }
    S->worlds[S->nworlds] = g;
    return PyLong_FromLong(S->nworlds++);
}

/* search_iterate(search, world, random): one iteration on a copy of that world. */
static PyObject *search_iterate(PyObject *self, PyObject *args) {
    PyObject *capsule, *random;
    int k;
    if (!PyArg_ParseTuple(args, "OiO", &capsule, &k, &random)) return NULL;
    Search *S = get_search(capsule);
    if (!S) return NULL;
    if (k < 0 || k >= S->nworlds) {
        PyErr_SetString(PyExc_IndexError, "no such world");
        return NULL;
    }
    int rc = iterate(S, k, random);
    if (rc == -2) return PyErr_NoMemory();
    if (rc < 0) return NULL;
    Py_RETURN_NONE;
}

/* search_root(search) -> (actions, visits per action, wins per action, root visits). */
static PyObject *search_root(PyObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Search *S = get_search(capsule);
    if (!S) return NULL;
    Node *root = &S->nodes[0];
    PyObject *w = PyList_New(root->nact);
    if (!w) return NULL;
    for (int i = 0; i < root->nact; i++) {
        PyObject *x = PyFloat_FromDouble(root->w[i]);
        if (!x) {
            Py_DECREF(w);
            return NULL;
        }
        PyList_SET_ITEM(w, i, x);
    }
    return Py_BuildValue("(NNNi)", ints(root->act, root->nact), ints(root->n, root->nact), w,
                         root->visits);
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
 * chance draws the board as chance.py's chance_outcomes say, one number per step. */
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
        if (draw_number(g.random, &r) < 0) goto fail;
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
        if (record(g.actions, action) < 0) goto fail;
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
     "max_turns, pending, random, budget) -> (actions, tiles, racks, bag, points, phase, turn, "
     "drawer, to_draw, passes, turns, occupied, end, pending)"},
    {"search_new", search_new, METH_VARARGS,
     "search_new(observer, c, depth, scale, count_laid, bluff) -> search (information-set MCTS)"},
    {"search_add_world", search_add_world, METH_VARARGS,
     "search_add_world(search, board, tiles, racks, bag, points, phase, turn, drawer, to_draw, "
     "passes, turns, max_turns, pending, pending colours, decider) -> the world's number"},
    {"search_iterate", search_iterate, METH_VARARGS,
     "search_iterate(search, world, random): one iteration on a copy of that world"},
    {"search_root", search_root, METH_VARARGS,
     "search_root(search) -> (actions, visits, wins, root visits)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_cplayout", "Compiled GobbleStones random playouts.", -1, methods,
};

PyMODINIT_FUNC PyInit__cplayout(void) {
    make_permutations();
    return PyModule_Create(&moduledef);
}

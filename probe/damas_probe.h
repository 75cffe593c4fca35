/* damas_probe.h: the C interface of the damas endgame tablebase prober (draughts family).
 *
 * For engines in C or any language with a C foreign function interface. Needs none of the C++
 * types: a position is three square masks, the side to move and a variant number.
 *
 *   damas_tablebase* tb = damas_open("db", 64, 0, err, sizeof err);
 *   damas_result r = damas_probe_wdl(tb, DAMAS_ENGLISH, white, black, kings, DAMAS_WHITE);
 *   if (r.status == DAMAS_OK && r.value == DAMAS_WIN) ...
 *   damas_close(tb);
 *
 * Or from a FEN, under the move-limit draw rules, and every move at the root:
 *
 *   damas_rule_counts counts = {0, 0, 0, DAMAS_EDITION_SEED, DAMAS_FORCADA_SIDE_UNKNOWN};
 *   damas_rule_result rr = damas_probe_rules_fen(tb, DAMAS_ENGLISH, "W:WK18,K19:BK1", &counts);
 *   damas_root_move moves[DAMAS_MAX_MOVES]; int n;
 *   int status = damas_probe_root_fen(tb, DAMAS_ENGLISH, "W:WK18,K19:BK1", NULL, moves,
 *                                     DAMAS_MAX_MOVES, &n);
 *
 * Squares. Bit n-1 of a mask is square n of the variant's PDN numbering: international,
 * english, italian: 1 = the first playable square of the top row (Black's side), left to right,
 * rows downwards; portuguese: 1 = the first playable square of the bottom row from the right;
 * brazilian and russian (algebraic on the board) use the english numbering, 1 = b8 .. 32 = g1;
 * turkish uses all 64 squares, bit 8 * rank + file: a1 = bit 0, h1 = bit 7, h8 = bit 63.
 * kings must be a subset of white | black.
 *
 * Values are from the point of view of the side to move; plies (probe_dtw) is the number of
 * plies (moves of one side) until the game ends with best play: the winner takes the shortest
 * way, the loser the longest; 0 for a game already over and for draws. Positions where the side
 * to move must capture are resolved by searching the captures.
 *
 * Thread safety: every probe and query function, damas_refresh and damas_set_retry_delay may be
 * called from any number of threads at once on one handle. damas_open and damas_close may not
 * overlap other calls on that handle. Steady-state probes do not allocate.
 *
 * Files that change while a handle is open (a folder regenerated under a running engine):
 * - a table that could not be opened (missing, damaged, unreadable) answers its status
 *   (DAMAS_NOT_IN_DATABASE, DAMAS_ERROR_CORRUPT, DAMAS_ERROR_IO) at once for the retry delay
 *   (1 s; damas_set_retry_delay), then the next probe that needs it tries the file again:
 *   a failure is never remembered for longer;
 * - a read error of an open table makes the probe look at the file, at most once per retry
 *   delay: if the path names another file now (removed, replaced, rewritten in place), the
 *   table is opened again; a damaged file that did not change keeps answering its error;
 * - a file replaced by a rename while open is still read through the open descriptor (the
 *   values of the file opened, not an error): call damas_refresh after replacing files.
 */
#ifndef DAMAS_PROBE_H
#define DAMAS_PROBE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque handle on an open database folder. */
typedef struct damas_tablebase damas_tablebase;

/* Variants: a base variant, plus DAMAS_GIVEAWAY for its giveaway form (same moves, the side
 * that cannot move wins), e.g. DAMAS_ENGLISH | DAMAS_GIVEAWAY. */
enum damas_variant {
    DAMAS_INTERNATIONAL = 0,
    DAMAS_BRAZILIAN = 1,
    DAMAS_PORTUGUESE = 2,
    DAMAS_RUSSIAN = 3,
    DAMAS_ITALIAN = 4,
    DAMAS_ENGLISH = 5,
    DAMAS_TURKISH = 6,
    DAMAS_GIVEAWAY = 16
};

enum damas_side { DAMAS_WHITE = 0, DAMAS_BLACK = 1 };

enum damas_status {
    DAMAS_OK = 0,
    DAMAS_NOT_IN_DATABASE = 1,   /* a class needed is missing, or too many pieces */
    DAMAS_NOT_IN_CACHE = 2,      /* damas_probe_wdl_cached: a block needed is not cached */
    DAMAS_ERROR_CORRUPT = 3,     /* a table file is damaged or is not the table its name says */
    DAMAS_ERROR_IO = 4,          /* a table file could not be opened or read (permissions, I/O) */
    DAMAS_INVALID_POSITION = 5,  /* pieces overlap or off the board, a man where none can be,... */
    DAMAS_INVALID_ARGUMENT = 6,  /* a null handle or pointer, an unknown variant, side or edition,
                                    a negative count, a FEN that does not parse, too small an
                                    array */
    DAMAS_NO_RULE_TABLE = 7,     /* a rule table (.dtr...) is missing: run damas gen-rules */
    DAMAS_UNREACHABLE_COUNTS = 8 /* no game reaches the move-limit counts given at the position
                                    (e.g. more plies since a capture than in the ending) */
};

/* The largest cache_mib damas_open accepts: 1 TiB. */
#define DAMAS_MAX_CACHE_MIB ((size_t)1 << 20)

enum damas_value { DAMAS_LOSS = 0, DAMAS_DRAW = 1, DAMAS_WIN = 2, DAMAS_UNKNOWN = 3 };

/* What a distance counts: nothing (a WDL probe), the plies to the end of the game (DTW), or the
 * plies to the next conversion, a capture or a man move, or the end of the game (MTC: classes
 * generated with damas gen --metric mtc). */
enum damas_metric { DAMAS_METRIC_NONE = 0, DAMAS_METRIC_DTW = 1, DAMAS_METRIC_MTC = 2 };

typedef struct damas_result {
    int status; /* enum damas_status */
    int value;  /* enum damas_value, for the side to move; DAMAS_UNKNOWN unless DAMAS_OK */
    int plies;  /* damas_probe_dtw: the DTW in plies; damas_probe_distance: the DTW or the MTC,
                   as metric says; 0 otherwise */
    int metric; /* enum damas_metric: what plies counts */
} damas_result;

/* International's editions of the limited endings: the seed text (10 moves) or FMJD's (16). */
enum damas_edition { DAMAS_EDITION_SEED = 0, DAMAS_EDITION_FMJD = 1 };

/* Portuguese: the side whose three kings started the forcada. Needed only once the lone king
   has captured down to 1 king against 1, where the position no longer tells. */
enum damas_forcada_side {
    DAMAS_FORCADA_SIDE_UNKNOWN = 0, /* rule_value holds for both sides, or exact is 0 */
    DAMAS_FORCADA_SIDE_WHITE = 1,
    DAMAS_FORCADA_SIDE_BLACK = 2
};

/* The move-limit counts already used at a position (all 0: every count starts now). */
typedef struct damas_rule_counts {
    int plies_since_capture; /* plies since the last capture or man move (king-move rules) */
    int plies_in_ending;     /* plies since the current limited ending began */
    int forcada_plies;       /* portuguese 3 kings against 1 (and, after the lone king's
                                captures, 2 kings or 1 king against 1): plies since the forcada
                                count started; -1: started iff a king is on the long diagonal */
    int edition;             /* enum damas_edition (international only; else SEED) */
    int forcada_side;        /* enum damas_forcada_side */
} damas_rule_counts;

typedef struct damas_rule_result {
    int status;     /* enum damas_status; the fields below are meaningful when DAMAS_OK */
    int value;      /* the pure value (enum damas_value) for the side to move */
    int plies;      /* the pure DTW in plies (0 for a draw) */
    int rule_value; /* the value under the move-limit rules */
    int rule_plies; /* its distance to the rule's goal in plies (end of the game, or the capture
                       or man move that restarts the count in a position still won); 0 for a
                       draw. Not the DTW. */
    int plies_left; /* plies the count in force has left */
    int exact;      /* 0 only in portuguese 1 king against 1 with the forcada running and
                       forcada_side unknown, where that side changes the answer (rule_value is
                       then a draw) */
    char count[80]; /* the count in force, e.g. "the 5-move rule" (NUL-terminated) */
} damas_rule_result;

/* The most legal moves of any position of any variant; enough for damas_probe_root. */
#define DAMAS_MAX_MOVES 256

/* One legal move at the root. */
typedef struct damas_root_move {
    char notation[96]; /* PDN: "9-14", "18x11"; with every capture square when two moves share
                          their ends ("18x11x4"); NUL-terminated */
    int from, to;      /* square numbers (as the masks: bit n-1 is square n) */
    int value;         /* enum damas_value for the side that plays the move, counting it */
    int plies;         /* its distance in plies (0 for a draw): DTW or MTC, as metric says */
    int rule_value;    /* under the move-limit rules; DAMAS_UNKNOWN when counts were NULL */
    int rule_plies;    /* the rule value's distance (0 for a draw or when not asked) */
    int metric;        /* enum damas_metric: what plies counts (the root's class's distance) */
} damas_root_move;

/* A message from the library: a damaged table file (once per file), one line without newline;
 * called from whichever thread met it, never from two threads at once. */
typedef void (*damas_message_fn)(const char* line, void* user_data);

/* Opens a database folder (holding one folder per variant, e.g. db/english/0201.wdl). Tables
 * are opened on first use. cache_mib: the budget of the block cache in MiB, at most
 * DAMAS_MAX_CACHE_MIB (more is refused: an error, not a smaller cache); max_pieces: probe
 * only positions with at most that many pieces (0: no cap but the library's, 10). On failure
 * returns NULL and, if error is not NULL, writes a one-line message (NUL-terminated, cut to
 * error_size bytes). */
damas_tablebase* damas_open(const char* dir, size_t cache_mib, int max_pieces, char* error,
                            size_t error_size);
/* As damas_open, with a callback for the library's messages (NULL: none). */
damas_tablebase* damas_open_with_messages(const char* dir, size_t cache_mib, int max_pieces,
                                          damas_message_fn message, void* user_data, char* error,
                                          size_t error_size);
/* Closes the handle (NULL is allowed). */
void damas_close(damas_tablebase* tb);

/* Lets go of every open table file and cached block and forgets every failure, so the next
 * probes open the files the folder holds now (tables replaced by a rename are picked up; variant
 * folders and classes that appeared count for damas_largest). Safe while other threads probe
 * the handle: their probes finish on the files they started with, freed when none holds them
 * (this call waits for that, a probe's length). Returns DAMAS_OK, or DAMAS_INVALID_ARGUMENT for
 * a NULL handle. */
int damas_refresh(damas_tablebase* tb);
/* How long a table that failed answers its failure before it is tried again (default 1000 ms;
 * 0: every probe tries again). Returns DAMAS_OK, or DAMAS_INVALID_ARGUMENT (NULL, negative). */
int damas_set_retry_delay(damas_tablebase* tb, int milliseconds);

/* Win, draw or loss. May read the disk. */
damas_result damas_probe_wdl(const damas_tablebase* tb, int variant, uint64_t white, uint64_t black,
                             uint64_t kings, int side_to_move);
/* The same from the block cache only, for use deep in a search: never reads the disk;
 * DAMAS_NOT_IN_CACHE when a block needed is not cached yet. */
damas_result damas_probe_wdl_cached(const damas_tablebase* tb, int variant, uint64_t white,
                                    uint64_t black, uint64_t kings, int side_to_move);
/* The value and the distance to the end of the game in plies (reads the WDL and DTW files). */
damas_result damas_probe_dtw(const damas_tablebase* tb, int variant, uint64_t white, uint64_t black,
                             uint64_t kings, int side_to_move);

/* The value and the distance the position's class holds: its DTW, or its MTC where the class
 * was generated with --metric mtc (metric says which; a position that must capture has MTC 1).
 * damas_probe_dtw never reads an MTC file (DAMAS_NOT_IN_DATABASE for such a class). */
damas_result damas_probe_distance(const damas_tablebase* tb, int variant, uint64_t white,
                                  uint64_t black, uint64_t kings, int side_to_move);

/* The value and DTW of a position given as a FEN ("W:WK18,K19:BK1", also the PDN tag form
 * [FEN "W:..."]); DAMAS_INVALID_ARGUMENT if it does not parse. */
damas_result damas_probe_fen(const damas_tablebase* tb, int variant, const char* fen);

/* The value under the move-limit draw rules given the counts already used (NULL: all 0), with
 * the pure value and DTW. Needs the class's wdl, dtw and rule tables (damas gen-rules). */
damas_rule_result damas_probe_rules(const damas_tablebase* tb, int variant, uint64_t white,
                                    uint64_t black, uint64_t kings, int side_to_move,
                                    const damas_rule_counts* counts);
damas_rule_result damas_probe_rules_fen(const damas_tablebase* tb, int variant, const char* fen,
                                        const damas_rule_counts* counts);

/* Every legal move of the position with its value and DTW for the side that plays it, best
 * first (wins by shortest distance, draws, losses by longest), into moves[0..capacity); *count
 * is set to the number of moves (0 when the game is over). counts: also the value of every move
 * under the move-limit rules, with the counts at the root (NULL: not asked). Returns a status;
 * DAMAS_INVALID_ARGUMENT when capacity is too small (*count then says how many are needed).
 * Allocates. */
int damas_probe_root(const damas_tablebase* tb, int variant, uint64_t white, uint64_t black,
                     uint64_t kings, int side_to_move, const damas_rule_counts* counts,
                     damas_root_move* moves, int capacity, int* count);
int damas_probe_root_fen(const damas_tablebase* tb, int variant, const char* fen,
                         const damas_rule_counts* counts, damas_root_move* moves, int capacity,
                         int* count);

/* Parses a FEN of the variant into square masks and the side to move. Returns DAMAS_OK, or
 * DAMAS_INVALID_ARGUMENT and a one-line message in error (if not NULL; cut to error_size). */
int damas_parse_fen(int variant, const char* fen, uint64_t* white, uint64_t* black, uint64_t* kings,
                    int* side_to_move, char* error, size_t error_size);
/* Writes the FEN of a position into out (NUL-terminated; 200 bytes always suffice). Returns
 * DAMAS_OK, DAMAS_INVALID_POSITION for masks naming no square, or DAMAS_INVALID_ARGUMENT when
 * out is too small. */
int damas_print_fen(int variant, uint64_t white, uint64_t black, uint64_t kings, int side_to_move,
                    char* out, size_t out_size);

/* The most pieces of a complete class of the variant found when the handle was opened (or last
 * refreshed): its wdl and dtw (or mtc) files both open as that class's tables (stray or foreign
 * files do not count). Capped by max_pieces; 0 if none or on a bad argument. */
int damas_largest(const damas_tablebase* tb, int variant);

/* The variant number of a name ("english", "turkish-giveaway", ...), or -1. */
int damas_variant_from_name(const char* name);
/* The name of a variant number ("english-giveaway"), or NULL. Static storage. */
const char* damas_variant_name(int variant);
/* Human-readable names; never NULL, static storage. */
const char* damas_status_string(int status);
const char* damas_value_string(int value);

#ifdef __cplusplus
}
#endif

#endif /* DAMAS_PROBE_H */

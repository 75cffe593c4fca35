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
 * Thread safety: every probe and query function may be called from any number of threads at
 * once on one handle. damas_open and damas_close may not overlap other calls on that handle.
 * Steady-state probes do not allocate.
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
    DAMAS_NOT_IN_DATABASE = 1,  /* a class needed is missing, or too many pieces */
    DAMAS_NOT_IN_CACHE = 2,     /* damas_probe_wdl_cached: a block needed is not cached */
    DAMAS_ERROR_CORRUPT = 3,    /* a table file is damaged */
    DAMAS_ERROR_IO = 4,         /* a table file could not be read */
    DAMAS_INVALID_POSITION = 5, /* pieces overlap or off the board, a man where none can be,... */
    DAMAS_INVALID_ARGUMENT = 6  /* a null handle, an unknown variant or side */
};

enum damas_value { DAMAS_LOSS = 0, DAMAS_DRAW = 1, DAMAS_WIN = 2, DAMAS_UNKNOWN = 3 };

typedef struct damas_result {
    int status; /* enum damas_status */
    int value;  /* enum damas_value, for the side to move; DAMAS_UNKNOWN unless DAMAS_OK */
    int plies;  /* damas_probe_dtw: the DTW in plies; 0 otherwise */
} damas_result;

/* Opens a database folder (holding one folder per variant, e.g. db/english/0201.wdl). Tables
 * are opened on first use. cache_mib: the budget of the block cache in MiB; max_pieces: probe
 * only positions with at most that many pieces (0: no cap but the library's, 8). On failure
 * returns NULL and, if error is not NULL, writes a one-line message (NUL-terminated, cut to
 * error_size bytes). */
damas_tablebase* damas_open(const char* dir, size_t cache_mib, int max_pieces, char* error,
                            size_t error_size);
/* Closes the handle (NULL is allowed). */
void damas_close(damas_tablebase* tb);

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

/* The most pieces of any table of the variant found when the handle was opened (capped by
 * max_pieces); 0 if none or on a bad argument. */
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

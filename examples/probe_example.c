/* probe_example: probes one position through the installed C API of the damas prober.
 *
 *   probe_example DB_DIR [VARIANT WHITE BLACK KINGS SIDE]
 *
 * WHITE, BLACK and KINGS are square masks in PDN numbering (bit n-1 = square n; hex or decimal),
 * SIDE is w or b. Without them: english, white kings on 18 and 19 against a black king on 1,
 * White to move, which prints "win 21". Prints the value for the side to move and, for a win or
 * a loss, the plies to the end of the game with best play ("win 21", "draw", "loss 12"), as
 * `damas probe` does; or an error line on stderr and exits 2.
 *
 * Build against an installed library:
 *   cc probe_example.c $(pkg-config --cflags --libs damas-probe) -o probe_example
 */
#include <damas_probe.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t square(int n) {
    return (uint64_t)1 << (n - 1);
}

int main(int argc, char** argv) {
    if (argc != 2 && argc != 7) {
        fprintf(stderr, "usage: %s DB_DIR [VARIANT WHITE BLACK KINGS SIDE]\n", argv[0]);
        return 2;
    }
    int variant = DAMAS_ENGLISH;
    uint64_t white = square(18) | square(19), black = square(1);
    uint64_t kings = white | black;
    int side = DAMAS_WHITE;
    if (argc == 7) {
        variant = damas_variant_from_name(argv[2]);
        if (variant < 0) {
            fprintf(stderr, "probe_example: unknown variant '%s'\n", argv[2]);
            return 2;
        }
        white = strtoull(argv[3], NULL, 0);
        black = strtoull(argv[4], NULL, 0);
        kings = strtoull(argv[5], NULL, 0);
        side = argv[6][0] == 'b' ? DAMAS_BLACK : DAMAS_WHITE;
    }

    char error[256];
    damas_tablebase* tb = damas_open(argv[1], 16, 0, error, sizeof error);
    if (!tb) {
        fprintf(stderr, "probe_example: %s\n", error);
        return 2;
    }
    const damas_result r = damas_probe_dtw(tb, variant, white, black, kings, side);
    damas_close(tb);
    if (r.status != DAMAS_OK) {
        fprintf(stderr, "probe_example: %s\n", damas_status_string(r.status));
        return 2;
    }
    if (r.value == DAMAS_DRAW)
        printf("draw\n");
    else
        printf("%s %d\n", damas_value_string(r.value), r.plies);
    return 0;
}

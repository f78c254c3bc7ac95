/*
 * Nonopress's own driver for the Mosaic of Simon Tatham's puzzle collection (the version in
 * kohend/simon-puzzles): bench/bench_mosaic.py --tatham PATH compiles it against the
 * collection's sources at PATH (mosaic.c, random.c, misc.c, malloc.c, nullfe.c) and times
 * the game's own solver and generator through its `struct game`. Nothing of the collection
 * is copied here: it is reached through puzzles.h only.
 *
 * Reads lines on stdin, answers one line each on stdout:
 *   solve WxH:DESC      -> "solved SECONDS" or "unsolved SECONDS" (its solver only completes
 *                          clues: "unsolved" is no verdict on uniqueness)
 *   generate WxH SEED   -> "DESC SECONDS" (a game ID's description, the generator's time)
 * SECONDS are CPU seconds of the call (clock()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "puzzles.h"

extern const game thegame;

static double seconds_since(clock_t began)
{
    return (double)(clock() - began) / CLOCKS_PER_SEC;
}

static void answer_solve(char *id)
{
    char *colon = strchr(id, ':');
    game_params *params;
    game_state *state;
    const char *error = NULL;
    char *moves;
    clock_t began;

    if (!colon) {
        printf("error no-colon\n");
        return;
    }
    *colon = '\0';
    params = thegame.default_params();
    thegame.decode_params(params, id);
    if (thegame.validate_params(params, true) || thegame.validate_desc(params, colon + 1)) {
        printf("error invalid\n");
        thegame.free_params(params);
        return;
    }
    state = thegame.new_game(NULL, params, colon + 1);
    began = clock();
    moves = thegame.solve(state, state, NULL, &error);
    printf("%s %.6f\n", moves ? "solved" : "unsolved", seconds_since(began));
    sfree(moves);
    if (error && moves == NULL)
        sfree((char *)error);
    thegame.free_game(state);
    thegame.free_params(params);
}

static void answer_generate(const char *size, const char *seed)
{
    game_params *params = thegame.default_params();
    random_state *rs = random_new(seed, strlen(seed));
    char *aux = NULL, *desc;
    clock_t began;

    thegame.decode_params(params, size);
    if (thegame.validate_params(params, true)) {
        printf("error invalid\n");
    } else {
        began = clock();
        desc = thegame.new_desc(params, rs, &aux, false);
        printf("%s %.6f\n", desc, seconds_since(began));
        sfree(desc);
        sfree(aux);
    }
    random_free(rs);
    thegame.free_params(params);
}

int main(void)
{
    char line[65536], word[16], size[64], seed[64];

    while (fgets(line, sizeof(line), stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (sscanf(line, "%15s", word) != 1)
            continue;
        if (!strcmp(word, "solve"))
            answer_solve(line + 6);
        else if (!strcmp(word, "generate") && sscanf(line + 9, "%63s %63s", size, seed) == 2)
            answer_generate(size, seed);
        else
            printf("error unknown\n");
        fflush(stdout);
    }
    return 0;
}

/* Checks what the engine promises a contest player: Reset before each game,
   exactly 35 calls of Move per game for a living ant, statics not shared
   with any other copy, the grid as the interface describes it (25 cells
   seen, the own cell 0, the ant's row and column in range). It returns 9,
   an illegal direction, as soon as one promise is broken, so that the game
   stops with an error. */

static int calls;

void Reset(void)
{
    calls = 0;
}

int Move(int grid[11][11], int row, int column)
{
    int r, c, seen = 0;
    if (row < 0 || row > 10 || column < 0 || column > 10 || grid[row][column] != 0)
        return 9;
    for (r = 0; r < 11; r++)
        for (c = 0; c < 11; c++)
            if (grid[r][c] >= 0)
                seen++;
            else if (grid[r][c] != -1)
                return 9;
    if (seen != 25 || ++calls > 35)
        return 9;
    return (calls + row) % 8;
}

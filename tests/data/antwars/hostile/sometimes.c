/* A contest player that misbehaves in some games only: it plays like
   greedy.c, but crashes on one cell, loops forever on another, exits on a
   third and returns 9 on a fourth, so that a tournament's forfeits must
   land on exactly the games where it stepped there. */

#include <stdlib.h>

static int heading;
static int walked;
static volatile int *nowhere;

void Reset(void)
{
    heading = 2;
    walked = 0;
}

static int offset(int a, int b)
{
    int d = ((b - a) % 11 + 11) % 11;
    return d > 5 ? d - 11 : d;
}

static int sign(int x)
{
    return (x > 0) - (x < 0);
}

int Move(int grid[11][11], int row, int column)
{
    static const int by_signs[3][3] = {{7, 0, 1}, {6, 0, 2}, {5, 4, 3}};
    int best = 100, dr = 0, dc = 0, r, c;
    if (row == 0 && column == 0)
        return *nowhere;
    if (row == 10 && column == 4)
        for (;;)
            ;
    if (row == 1 && column == 9)
        exit(3);
    if (row == 8 && column == 6)
        return 9;
    for (r = 0; r < 11; r++) {
        for (c = 0; c < 11; c++) {
            if (grid[r][c] == 1) {
                int rr = offset(row, r), cc = offset(column, c);
                int ar = rr < 0 ? -rr : rr, ac = cc < 0 ? -cc : cc;
                int d = ar > ac ? ar : ac;
                if (d < best) {
                    best = d;
                    dr = rr;
                    dc = cc;
                }
            }
        }
    }
    if (best < 100) {
        walked = 0;
        return by_signs[sign(dr) + 1][sign(dc) + 1];
    }
    if (++walked >= 5) {
        walked = 0;
        heading = (heading + 1) % 8;
    }
    return heading;
}

/* A contest player (GECCO 2007 Ant Wars interface): steps towards the
   nearest food it sees, else keeps going in one direction, turning each time
   it has walked 5 cells without seeing food. Memory lives in statics, which
   Reset clears before each game. */

static int heading;
static int walked;

void Reset(void)
{
    heading = 2;
    walked = 0;
}

/* The shortest signed offset from a to b on the 11-cell torus. */
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
    for (r = 0; r < 11; r++) {
        for (c = 0; c < 11; c++) {
            if (grid[r][c] == 1) {
                int rr = offset(row, r), cc = offset(column, c);
                int d = (rr < 0 ? -rr : rr) > (cc < 0 ? -cc : cc) ? (rr < 0 ? -rr : rr) : (cc < 0 ? -cc : cc);
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

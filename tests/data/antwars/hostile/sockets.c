/* Opens a socket. */
#include <sys/socket.h>
int Move(int grid[11][11], int row, int column) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    (void)grid; (void)row; (void)column;
    return s >= 0 ? 1 : 3;
}

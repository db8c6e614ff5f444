# Extra core sources for file I/O (appended by the I/O work).

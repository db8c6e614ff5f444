# Extra CPU engine sources.

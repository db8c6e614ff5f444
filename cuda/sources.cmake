# GPU engine sources.

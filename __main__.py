"""`python -m kittens` runs the command line."""

from .cli import main

main()

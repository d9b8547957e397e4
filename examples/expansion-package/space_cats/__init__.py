"""Space Cats, an expansion for kittens. The rules are the YAML files in this
folder; kittens reads them through the `kittens.expansions` entry point and
never imports this package."""

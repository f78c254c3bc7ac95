"""The application layer: what every face of Nonopress (the CLI, the studio, the web
player) asks for, built once and knowing no face."""

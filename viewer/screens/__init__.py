"""The viewer's screens: the help overlay and the go-to and open dialogs."""

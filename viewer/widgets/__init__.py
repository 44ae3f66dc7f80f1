"""The viewer's widgets: the card table, the line lists and the side panels."""

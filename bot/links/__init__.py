"""What a link carries: signed seat tokens, a Mini App's table name, the console's secret."""

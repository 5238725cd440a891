from display.cli.main import main

main()

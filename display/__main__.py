from display.cli import main

main()

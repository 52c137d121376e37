from rhasp.cli import main

main()

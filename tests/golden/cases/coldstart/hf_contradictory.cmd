args: coldstart --hf-config hf/contradictory.json
exit: 2

args: offload --model 70b --gpu h101 --json
exit: 2

args: offload --model 70b --gpu h100 --plot /tmp/icx-golden-offload.svg
exit: 2

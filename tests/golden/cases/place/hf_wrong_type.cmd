args: place --hf-config hf/wrong_type.json --system dgx-h100
exit: 2

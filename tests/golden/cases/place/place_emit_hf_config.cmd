args: place --hf-config ../data/hf/llama-3.1-8b.json --system dgx-h100 --tp 2 --emit sglang
exit: 0

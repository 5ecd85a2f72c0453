args: validate --serving serving/vllm_llama33_70b_tp8_a100_qps_01.json --system aws-p4d
exit: 2

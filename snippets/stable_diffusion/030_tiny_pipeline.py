"""A tiny Stable Diffusion pipeline with random weights, built offline from configs.

Same architecture as Stable Diffusion (CLIP text encoder, UNet with cross-attention,
VAE, DDIM scheduler), thousands of times smaller, nothing downloaded. Its images are
noise; what it is good for is counting work and watching how memory scales.
"""

import gc
import json
import tempfile
from pathlib import Path

import torch
from diffusers import AutoencoderKL, DDIMScheduler, StableDiffusionPipeline, UNet2DConditionModel
from transformers import CLIPTextConfig, CLIPTextModel, CLIPTokenizer

# PyTorch for ROCm also calls the GPU "cuda".
device = "cuda" if torch.cuda.is_available() else "cpu"
ON_GPU = device == "cuda"
dtype = torch.float16 if ON_GPU else torch.float32
# Image side used by the measurements: on a GPU, large enough for activations (not
# weights) to dominate the peak; on the CPU, where work is counted, small and quick.
SIDE = 256 if ON_GPU else 64
PROMPT = "a lighthouse on a cliff at dusk"


def tiny_tokenizer() -> CLIPTokenizer:
    """A CLIP tokenizer over single letters, written to a temporary directory, so the hub is never reached."""
    vocab = {"<|startoftext|>": 0, "<|endoftext|>": 1}
    for letter in "abcdefghijklmnopqrstuvwxyz":
        vocab[letter] = len(vocab)
        vocab[letter + "</w>"] = len(vocab)
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
        (Path(folder) / "merges.txt").write_text("#version: 0.2\n", encoding="utf-8")
        return CLIPTokenizer(str(Path(folder) / "vocab.json"), str(Path(folder) / "merges.txt"),
                             model_max_length=77)


def build_pipeline(seed: int = 0) -> StableDiffusionPipeline:
    """Every component from a config, with random weights."""
    torch.manual_seed(seed)
    tokenizer = tiny_tokenizer()
    text_encoder = CLIPTextModel(CLIPTextConfig(
        vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, max_position_embeddings=77, bos_token_id=0, eos_token_id=1,
        pad_token_id=1))
    unet = UNet2DConditionModel(
        sample_size=32, in_channels=4, out_channels=4, layers_per_block=1,
        block_out_channels=(32, 64), norm_num_groups=32, cross_attention_dim=32,
        attention_head_dim=8,  # diffusers reads this as 8 heads per attention layer
        down_block_types=("DownBlock2D", "CrossAttnDownBlock2D"),
        up_block_types=("CrossAttnUpBlock2D", "UpBlock2D"))
    vae = AutoencoderKL(
        sample_size=64, in_channels=3, out_channels=3, latent_channels=4,
        block_out_channels=(32, 64), norm_num_groups=32,
        down_block_types=("DownEncoderBlock2D",) * 2, up_block_types=("UpDecoderBlock2D",) * 2)
    scheduler = DDIMScheduler.from_config({
        "beta_start": 0.00085, "beta_end": 0.012, "beta_schedule": "scaled_linear",
        "clip_sample": False, "set_alpha_to_one": False, "steps_offset": 1})
    pipe = StableDiffusionPipeline(
        vae=vae, text_encoder=text_encoder, tokenizer=tokenizer, unet=unet, scheduler=scheduler,
        safety_checker=None, feature_extractor=None, requires_safety_checker=False)
    pipe.set_progress_bar_config(disable=True)
    pipe.to(device)
    if dtype == torch.float16:  # half precision on a GPU, as Stable Diffusion is usually run
        for model in (pipe.text_encoder, pipe.unet, pipe.vae):
            model.half()
    return pipe


class UNetCalls:
    """Records every UNet call made inside the ``with`` block: batch size and latent size."""

    def __init__(self, pipe):
        self.unet = pipe.unet
        self.calls = []  # (batch, latent height, latent width)

    def __enter__(self):
        original = self.unet.forward

        def counted(sample, *args, **kwargs):
            self.calls.append(tuple(sample.shape[i] for i in (0, 2, 3)))
            return original(sample, *args, **kwargs)

        self.unet.forward = counted
        return self

    def __exit__(self, *exc):
        del self.unet.forward  # back to the class's own forward

    @property
    def batches(self) -> set:
        return {batch for batch, _, _ in self.calls}

    @property
    def work(self) -> int:
        """Latent pixels the UNet processed, summed over calls (batch × height × width)."""
        return sum(b * h * w for b, h, w in self.calls)


def measure(run):
    """``run()``'s result and the peak GPU memory PyTorch allocated meanwhile, in MiB.

    The peak is ``None`` on the CPU: PyTorch does not measure it there, and this guide does not estimate it.
    """
    gc.collect()
    if not ON_GPU:
        with torch.no_grad():
            return run(), None
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    with torch.no_grad():
        result = run()
    torch.cuda.synchronize()
    return result, torch.cuda.max_memory_allocated() / 2**20


def generate(pipe, side=SIDE, steps=4, guidance_scale=7.5, **kwargs):
    """One text-to-image call on the tiny pipeline; latents out unless told otherwise."""
    kwargs.setdefault("output_type", "latent")
    return pipe(PROMPT, height=side, width=side, num_inference_steps=steps,
                guidance_scale=guidance_scale,
                generator=torch.Generator(device).manual_seed(0), **kwargs).images


pipe = build_pipeline()
sizes = {name: sum(p.numel() for p in getattr(pipe, name).parameters())
         for name in ("text_encoder", "unet", "vae")}
print(f"device: {device} ({dtype}), image side for the measurements: {SIDE} px")
print("parameters: " + ", ".join(f"{name} {count:,}" for name, count in sizes.items()))

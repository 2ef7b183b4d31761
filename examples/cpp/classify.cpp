// classify MODEL [IMAGE.ppm]: runs an image classifier saved by torch.jit.save on one image and prints
// its five most likely classes. The image is a binary PPM (P6, 8-bit RGB, any size); without one, a
// 224x224 test pattern is used. Class names come from the archive's extra file "labels.txt" (one per
// line) when it has one. Preprocessing is torchvision's ImageNet normalization.
#include <kindling/kindling.h>

#include <cstdint>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Image {
  int64_t height = 0, width = 0;
  std::vector<uint8_t> rgb;  // height x width x 3
};

/// The pattern the tests reproduce in Python: channel c of pixel (y, x) is (3x + 5y + 7c) mod 256.
Image testPattern() {
  Image im{224, 224, std::vector<uint8_t>(224 * 224 * 3)};
  for (int64_t y = 0; y < im.height; ++y)
    for (int64_t x = 0; x < im.width; ++x)
      for (int64_t c = 0; c < 3; ++c) im.rgb[(y * im.width + x) * 3 + c] = static_cast<uint8_t>((3 * x + 5 * y + 7 * c) % 256);
  return im;
}

Image readPpm(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::string magic;
  int maxval = 0;
  Image im;
  if (!(f >> magic >> im.width >> im.height >> maxval) || magic != "P6" || maxval != 255 || im.width <= 0 || im.height <= 0 ||
      im.width > 16384 || im.height > 16384)
    throw std::runtime_error("'" + path + "' is not a binary 8-bit PPM image (P6)");
  f.get();  // the single whitespace after the header
  im.rgb.resize(static_cast<size_t>(im.width * im.height * 3));
  if (!f.read(reinterpret_cast<char*>(im.rgb.data()), static_cast<std::streamsize>(im.rgb.size())))
    throw std::runtime_error("'" + path + "' is truncated");
  return im;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: classify MODEL.pt [IMAGE.ppm]\n";
    return 64;
  }
  try {
    kindling::set_num_threads(1);
    kindling::jit::ExtraFilesMap extra{{"labels.txt", ""}};
    kindling::jit::Module model = kindling::jit::load(argv[1], std::nullopt, extra);
    model.eval();
    std::vector<std::string> labels;
    std::istringstream names(extra["labels.txt"]);
    for (std::string line; std::getline(names, line);) labels.push_back(line);

    Image im = argc == 3 ? readPpm(argv[2]) : testPattern();
    // HWC uint8 without a copy → NCHW float in [0, 1] → normalized per channel.
    kindling::Tensor hwc = kindling::from_blob(im.rgb.data(), {im.height, im.width, 3}, kindling::kByte);
    kindling::Tensor x = hwc.permute({2, 0, 1}).to(kindling::kFloat).div(255).unsqueeze(0);
    const double mean[3] = {0.485, 0.456, 0.406}, stdev[3] = {0.229, 0.224, 0.225};
    for (int64_t c = 0; c < 3; ++c) x.select(1, c).sub_(mean[c]).div_(stdev[c]);

    kindling::Tensor logits = model.forward({x}).toTensor();
    kindling::Tensor probs = logits.softmax(1)[0];
    auto [values, indices] = probs.topk(std::min<int64_t>(5, probs.size(0)));
    for (int64_t i = 0; i < values.size(0); ++i) {
      int64_t k = indices[i].item<int64_t>();
      std::string name = k < static_cast<int64_t>(labels.size()) ? labels[k] : "class " + std::to_string(k);
      std::cout << std::setw(2) << i + 1 << ". " << std::setw(4) << k << "  " << std::fixed << std::setprecision(4)
                << values[i].item<float>() << "  " << name << "\n";
    }
    return 0;
  } catch (const kindling::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

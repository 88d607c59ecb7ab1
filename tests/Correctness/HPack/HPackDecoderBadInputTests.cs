using SystemUnderTest.HPack;
using static Correctness.HPack.HPackTestData;

namespace Correctness.HPack;

/// <summary>One test per rule of RFC 7541 (and per limit): bad input raises <see cref="HPackDecodingException"/> naming it.</summary>
public sealed class HPackDecoderBadInputTests
{
    // Each row: the rule, the block, the words the message must contain, and the byte offset it must name.
    public static TheoryData<string, string, string, long> Rules => new()
    {
        // 6.1: index 0 is not used.
        { "index 0", "82 80", "index 0", 1 },
        // 2.3.3: index 62 with an empty dynamic table.
        { "indexed field past the tables", "be", "Index 62 is past", 0 },
        // 6.2.1: literal whose name index (6-bit prefix, 62) is past the tables.
        { "literal name index past the tables", "7e 01 61", "Index 62 is past", 0 },
        // 5.1: 127 + 16 * 2^28 > 2^31-1.
        { "integer over 2^31-1", "ff 80 80 80 80 10", "exceeds 2^31-1", 5 },
        // 5.2: a Huffman name of 32 one-bits holds the 30-bit EOS symbol.
        { "EOS in a Huffman string", "00 84 ff ff ff ff 01 61", "EOS", 2 },
        // 5.2: 'a' (00011) padded with zeros.
        { "padding not all ones", "00 81 18 01 61", "padding", 2 },
        // 5.2: 'a' (00011) then 11 one-bits of padding.
        { "padding longer than 7 bits", "00 82 1f ff 01 61", "padding", 2 },
        // 6.3: size update to 4097 above the announced 4096 (5-bit prefix 31 + 4066).
        { "size update above the limit", "3f e2 1f", "exceeds the announced limit 4096", 0 },
        // 4.2: a size update after a header field.
        { "size update not first", "82 20", "size update after the first header", 1 },
        // The block ends inside an integer.
        { "truncated integer", "82 ff", "Truncated header block", 2 },
        // The block ends before the value of a literal.
        { "truncated literal", "41", "Truncated header block", 1 },
        // A name literal of 5 bytes with 2 left.
        { "literal longer than the remaining input", "00 05 61 62", "string literal of 5 bytes has only 2", 4 },
    };

    [Theory]
    [MemberData(nameof(Rules))]
    public void Bad_input_is_rejected_naming_the_rule_and_offset(string rule, string hex, string message, long offset)
    {
        var decoder = new HPackDecoder();
        var act = () => Decode(decoder, Hex(hex));
        var thrown = act.Should().ThrowExactly<HPackDecodingException>(rule).Which;
        thrown.Message.Should().Contain(message, rule);
        thrown.BlockOffset.Should().Be(offset, rule);
        thrown.Message.Should().Contain($"byte offset {offset}");
    }

    [Fact]
    public void Header_list_over_MaxHeaderListSize_is_rejected()
    {
        // ":method: GET" counts 7 + 3 + 32 = 42; two of them exceed 50.
        var decoder = new HPackDecoder(new HPackDecoderOptions { MaxHeaderListSize = 50 });
        var act = () => Decode(decoder, Hex("82 82"));
        act.Should().ThrowExactly<HPackDecodingException>().WithMessage("Header list size 84 exceeds MaxHeaderListSize 50*");
        Decode(decoder, Hex("82")).Should().ContainSingle("the count restarts with each block");
    }

    [Fact]
    public void Literal_over_MaxStringLiteralLength_is_rejected()
    {
        var decoder = new HPackDecoder(new HPackDecoderOptions { MaxStringLiteralLength = 4 });
        var act = () => Decode(decoder, Hex("00 05 61 62 63 64 65 01 61"));
        act.Should().ThrowExactly<HPackDecodingException>().WithMessage("String literal of 5 bytes exceeds MaxStringLiteralLength 4*");
    }

    [Fact]
    public void Integer_at_2_pow_31_minus_1_is_read_and_one_more_overflows()
    {
        var max = new byte[8];
        IntegerEncoder.TryEncode(int.MaxValue, 7, 0x80, max, out var written).Should().BeTrue();
        var act = () => Decode(new HPackDecoder(), max[..written]);
        act.Should().ThrowExactly<HPackDecodingException>().WithMessage("Index 2147483647 is past*", "2^31-1 is a valid integer, just not a valid index");

        // 2^31 = 127 + 2147483521: the same bytes with the last continuation one higher.
        var over = max[..written];
        over[^1]++;
        var overflow = () => Decode(new HPackDecoder(), over);
        overflow.Should().ThrowExactly<HPackDecodingException>().WithMessage("Integer exceeds 2^31-1*");
    }

    [Fact]
    public void Size_update_to_the_limit_and_several_at_the_start_are_accepted()
    {
        var decoder = new HPackDecoder();
        Decode(decoder, Hex("40 01 61 01 62")).Should().ContainSingle();
        decoder.DynamicTableSize.Should().Be(34);
        // Two updates at the start of a block (section 4.2): to 0 (empties the table), then back to 4096.
        Decode(decoder, Hex("20 3f e1 1f 82")).Should().ContainSingle();
        decoder.DynamicTableSize.Should().Be(0);
        decoder.DynamicTableMaxSize.Should().Be(4096);
    }

    [Fact]
    public void Options_are_validated()
    {
        var act = () => new HPackDecoder(new HPackDecoderOptions { MaxHeaderListSize = 0 });
        act.Should().Throw<ArgumentOutOfRangeException>();
        var negative = () => new HPackDecoder(new HPackDecoderOptions { MaxDynamicTableSize = -1 });
        negative.Should().Throw<ArgumentOutOfRangeException>();
    }
}
